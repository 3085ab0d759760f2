# Cross-compiling for arm64 on an x86-64 Debian host: the GNU cross toolchain and the arm64
# libraries of Debian's multiarch layout (/usr/lib/aarch64-linux-gnu), from scripts/setup-deps.sh
# --arch arm64. Used by scripts/build.sh --arch arm64.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# Host tools (clang for BPF, bpftool) run on the build machine; libraries and headers are the
# target's.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
