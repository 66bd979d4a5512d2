# vcpkg port of openclaw, installed by openclaw's own CMake install rules so that
# find_package(openclaw), openclaw_embed_kernels() and openclaw.pc are the ones the project tests.
# openclaw's build compiles the library once (libopenclaw.a and libopenclaw.so); the consumer's
# build links it and compiles none of openclaw's sources.

# MAINTAINER: before submitting, set REF to the release tag and SHA512 to the hash vcpkg prints
# on the first install attempt (or `vcpkg hash <archive>`). The zero below is a placeholder and
# makes the download fail on purpose.
vcpkg_from_github(
    OUT_SOURCE_PATH SOURCE_PATH
    REPO openclaw/openclaw
    REF "v${VERSION}"
    SHA512 0
    HEAD_REF main
)

vcpkg_cmake_configure(
    SOURCE_PATH "${SOURCE_PATH}"
    OPTIONS
        -DOPENCLAW_BUILD_TESTS=OFF
        -DOPENCLAW_BUILD_EXAMPLES=OFF
        -DOPENCLAW_BUILD_BENCHMARKS=OFF
        -DOPENCLAW_INSTALL=ON
        -DOPENCLAW_WERROR=OFF
)
vcpkg_cmake_install()
# openclaw installs its package into lib/cmake/openclaw; vcpkg wants share/openclaw.
vcpkg_cmake_config_fixup(PACKAGE_NAME openclaw CONFIG_PATH lib/cmake/openclaw)
vcpkg_fixup_pkgconfig()

# The debug tree keeps its libraries only; the licence goes to share/openclaw/copyright.
file(REMOVE_RECURSE "${CURRENT_PACKAGES_DIR}/debug/include" "${CURRENT_PACKAGES_DIR}/debug/share"
     "${CURRENT_PACKAGES_DIR}/share/doc")
file(INSTALL "${CMAKE_CURRENT_LIST_DIR}/usage" DESTINATION "${CURRENT_PACKAGES_DIR}/share/${PORT}")
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")
