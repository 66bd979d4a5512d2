# Conan 2 recipe of openclaw, written for conan-center-index (recipes/openclaw/all/).
# Header-only: the headers (with the bodies they include, impl/*.ipp) and openclaw_embed_kernels()
# are copied, nothing is built. The CMake config files Conan's CMakeDeps writes stand in for
# openclaw's own (ConanCenter's rule), with the same file name (openclaw) and target
# (openclaw::openclaw), which is then header-only: openclaw's own compiled library target needs
# openclaw's CMake package (find_package against `cmake --install`, add_subdirectory, vcpkg).
import os

from conan import ConanFile
from conan.tools.build import check_min_cppstd
from conan.tools.files import copy, get
from conan.tools.layout import basic_layout

required_conan_version = ">=2.0"


class OpenclawConan(ConanFile):
    name = "openclaw"
    description = ("Header-only C++20 wrapper of OpenCL: RAII handles, access-tagged buffers, "
                   "type-checked kernels")
    license = "Apache-2.0"
    url = "https://github.com/conan-io/conan-center-index"
    homepage = "https://github.com/openclaw/openclaw"
    topics = ("opencl", "gpu", "gpgpu", "header-only")
    package_type = "header-library"
    settings = "os", "arch", "compiler", "build_type"
    no_copy_source = True

    def layout(self):
        basic_layout(self, src_folder="src")

    def requirements(self):
        # The headers include <CL/cl.h> and call the loader's entry points directly.
        self.requires("opencl-headers/2023.12.14", transitive_headers=True)
        self.requires("opencl-icd-loader/2023.12.14")

    def package_id(self):
        self.info.clear()

    def validate(self):
        check_min_cppstd(self, 20)

    def source(self):
        get(self, **self.conan_data["sources"][self.version], strip_root=True)

    def package(self):
        copy(self, "LICENSE", self.source_folder, os.path.join(self.package_folder, "licenses"))
        for pattern in ("*.hpp", "*.ipp"):
            copy(self, pattern, os.path.join(self.source_folder, "include"),
                 os.path.join(self.package_folder, "include"))
        # openclaw_embed_kernels(): a CMake function, shipped as a build module.
        copy(self, "openclawEmbedKernels.cmake", os.path.join(self.source_folder, "cmake"),
             os.path.join(self.package_folder, "lib", "cmake", "openclaw"))

    def package_info(self):
        self.cpp_info.bindirs = []
        self.cpp_info.libdirs = []
        self.cpp_info.set_property("cmake_file_name", "openclaw")
        self.cpp_info.set_property("cmake_target_name", "openclaw::openclaw")
        self.cpp_info.set_property("pkg_config_name", "openclaw")
        self.cpp_info.set_property(
            "cmake_build_modules",
            [os.path.join("lib", "cmake", "openclaw", "openclawEmbedKernels.cmake")])
        self.cpp_info.requires = ["opencl-headers::opencl-headers",
                                  "opencl-icd-loader::opencl-icd-loader"]
