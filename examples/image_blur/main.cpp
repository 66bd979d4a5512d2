// image_blur: a box blur of a generated rgba8 image on the device. The kernel reads the source
// image through a sampler argument (pixel coordinates, CLK_ADDRESS_CLAMP_TO_EDGE, nearest), so
// the border needs no special case, and writes a second image; the host computes the same blur
// and the two must agree within one step of 8-bit rounding.
// Usage: image_blur [width] [height] [radius]  (default 640 480 3)
#include <openclaw/image.hpp>  // Image2D, pixel formats, samplers
#include <openclaw/openclaw.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr const char* source = R"CLC(
__kernel void box_blur(read_only image2d_t input, sampler_t sampler, write_only image2d_t output,
                       const int radius) {
    const int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 sum = (float4)(0.0f);
    for (int dy = -radius; dy <= radius; ++dy) {
        for (int dx = -radius; dx <= radius; ++dx) {
            sum += read_imagef(input, sampler, p + (int2)(dx, dy));
        }
    }
    const float side = (float)(2 * radius + 1);
    write_imagef(output, p, sum / (side * side));
}
)CLC";

using Rgba8 = openclaw::pixel::rgba8;

// A picture with edges and gradients, so that a wrong blur shows.
std::vector<cl_uchar4> generate(std::size_t width, std::size_t height) {
    std::vector<cl_uchar4> pixels(width * height);
    for (std::size_t y = 0; y < height; ++y) {
        for (std::size_t x = 0; x < width; ++x) {
            const bool check = ((x / 16) + (y / 16)) % 2 == 0;
            pixels[y * width + x] = cl_uchar4{
                {static_cast<cl_uchar>(x * 255 / width), static_cast<cl_uchar>(y * 255 / height),
                 static_cast<cl_uchar>(check ? 230 : 20), static_cast<cl_uchar>(255)}};
        }
    }
    return pixels;
}

// The same blur on the host: clamp-to-edge reads, the mean in [0, 1], scaled back to 8 bits.
std::vector<float> host_blur(const std::vector<cl_uchar4>& in, int width, int height, int radius) {
    std::vector<float> out(in.size() * 4);
    const float count = static_cast<float>((2 * radius + 1) * (2 * radius + 1));
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            float sum[4] = {0, 0, 0, 0};
            for (int dy = -radius; dy <= radius; ++dy) {
                for (int dx = -radius; dx <= radius; ++dx) {
                    const int sx = std::clamp(x + dx, 0, width - 1);
                    const int sy = std::clamp(y + dy, 0, height - 1);
                    const cl_uchar4& p = in[static_cast<std::size_t>(sy * width + sx)];
                    for (int c = 0; c < 4; ++c) {
                        sum[c] += p.s[c] / 255.0f;
                    }
                }
            }
            for (int c = 0; c < 4; ++c) {
                out[static_cast<std::size_t>(y * width + x) * 4 + c] = sum[c] / count * 255.0f;
            }
        }
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) try {
    const int width = argc > 1 ? std::stoi(argv[1]) : 640;
    const int height = argc > 2 ? std::stoi(argv[2]) : 480;
    const int radius = argc > 3 ? std::stoi(argv[3]) : 3;
    if (width < 1 || height < 1 || radius < 0 || radius > 32) {
        std::fprintf(stderr, "image_blur: need width, height >= 1 and radius 0 to 32\n");
        return EXIT_FAILURE;
    }
    const openclaw::Device device = openclaw::select_device();
    std::printf("device: %s (%s)\n", device.name().c_str(), device.platform().name().c_str());
    if (!device.info<CL_DEVICE_IMAGE_SUPPORT>()) {
        std::printf("image_blur: FAILED, the device has no image support\n");
        return EXIT_FAILURE;
    }

    const auto w = static_cast<std::size_t>(width);
    const auto h = static_cast<std::size_t>(height);
    const std::vector<cl_uchar4> picture = generate(w, h);

    openclaw::Context context{device};
    openclaw::Queue queue{context, device};
    // The pixel format is part of the image's type; creation checks it against the context's
    // supported formats and the extents against CL_DEVICE_IMAGE2D_MAX_WIDTH/HEIGHT.
    const openclaw::Image2D<Rgba8, openclaw::ReadOnly> input{context, w, h, picture};
    const openclaw::Image2D<Rgba8, openclaw::WriteOnly> output{context, w, h};
    const openclaw::Sampler clamp{context, false, openclaw::AddressMode::clamp_to_edge,
                                  openclaw::FilterMode::nearest};

    auto program = openclaw::Program::build(context, source);
    auto blur = program.kernel<openclaw::ReadImage2D<Rgba8>, openclaw::SamplerParam,
                               openclaw::WriteImage2D<Rgba8>, cl_int>("box_blur");
    queue.enqueue(blur.set_args(input, clamp, output, cl_int{radius}), openclaw::NDRange{w, h});

    std::vector<cl_uchar4> result(w * h);
    queue.read(output, result);

    const std::vector<float> expected = host_blur(picture, width, height, radius);
    float worst = 0.0f;
    std::size_t worst_at = 0;
    for (std::size_t i = 0; i < result.size(); ++i) {
        for (int c = 0; c < 4; ++c) {
            const float error = std::fabs(result[i].s[c] - expected[i * 4 + c]);
            if (error > worst) {
                worst = error;
                worst_at = i;
            }
        }
    }
    // The device rounds the mean to the nearest 8-bit step: within 0.5, plus float error.
    if (worst > 1.0f) {
        std::printf("image_blur: FAILED, pixel (%zu, %zu) is off by %.2f of 255\n", worst_at % w,
                    worst_at / w, worst);
        return EXIT_FAILURE;
    }
    std::printf("image_blur: %dx%d rgba8, %dx%d box, largest difference %.2f of 255, verified\n",
                width, height, 2 * radius + 1, 2 * radius + 1, worst);
    return EXIT_SUCCESS;
} catch (const openclaw::Error& error) {
    std::fprintf(stderr, "image_blur: %s\n", error.what());
    return EXIT_FAILURE;
} catch (const std::exception& error) {  // std::stoi on a bad argument
    std::fprintf(stderr, "image_blur: %s\n", error.what());
    return EXIT_FAILURE;
}
