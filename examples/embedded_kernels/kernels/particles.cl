// Kernels of the embedded_kernels example. They live in this file, are compiled into the
// program by openclaw_embed_kernels(), and their C++ signatures are read from the declarations
// below at compile time: change a parameter here and the host code stops compiling.

typedef struct {
    float4 position;  // w unused
    float4 velocity;  // w unused
} Particle;

/* Reflects one coordinate off the walls at -bound and +bound. */
float reflect_coordinate(float x, float* v, const float bound) {
    if (x > bound) {
        *v = -*v;
        return 2.0f * bound - x;
    }
    if (x < -bound) {
        *v = -*v;
        return -2.0f * bound - x;
    }
    return x;
}

// Moves every particle by its velocity over dt, bouncing off the walls of a cube.
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void advance(__global Particle* restrict particles, const float dt, const float bound,
             const uint n) {
    const uint i = get_global_id(0);
    if (i >= n) {
        return;
    }
    Particle p = particles[i];
    float4 next = p.position + dt * p.velocity;
    float vx = p.velocity.x, vy = p.velocity.y, vz = p.velocity.z;
    next.x = reflect_coordinate(next.x, &vx, bound);
    next.y = reflect_coordinate(next.y, &vy, bound);
    next.z = reflect_coordinate(next.z, &vz, bound);
    p.position = next;
    p.velocity = (float4)(vx, vy, vz, 0.0f);
    particles[i] = p;
}

// Twice the kinetic energy (unit masses) summed per work-group in local memory.
kernel void energy(global const Particle* particles, global float* partial,
                   local float* scratch, const uint n) {
    const uint lid = get_local_id(0);
    const uint gid = get_global_id(0);
    const float4 v = gid < n ? particles[gid].velocity : (float4)(0.0f);
    scratch[lid] = dot(v, v);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s) {
            scratch[lid] += scratch[lid + s];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        partial[get_group_id(0)] = scratch[0];
    }
}
