#!/usr/bin/env bash
# Installs what is missing, builds examples/vector_add in release mode and runs it on the first
# GPU, or on the first OpenCL device of any kind (PoCL's CPU device where there is no GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset example >/dev/null
cmake --build --preset example --target vector_add device_info
build/example/examples/vector_add/vector_add
