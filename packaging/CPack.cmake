# `cpack -G DEB` in the build tree (or `cmake --build build --target package`) makes
# retsnoop_<version>_amd64.deb from the install rules of packaging/CMakeLists.txt.
set(RETSNOOP_DEB_MAINTAINER "retsnoop maintainers <root@localhost>" CACHE STRING
    "Maintainer field of the .deb")
set(RETSNOOP_DEB_HOMEPAGE "" CACHE STRING "Homepage field of the .deb; none when empty")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME retsnoop)
# Debian versions take '+' where git describe puts '-' ("0.1.0-3-gabc" would read as a Debian
# revision).
string(REPLACE "-" "+" CPACK_PACKAGE_VERSION "${RETSNOOP_VERSION}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "kernel failure tracer: the call stack behind a failing syscall")
# CPack puts the summary first: this is the extended description below it.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "retsnoop traces chosen kernel functions with BPF and reports the deepest kernel call stack\n\
(and optionally the call trace and last branch records) of every failing call, as text or\n\
JSON. It can run as a service on many hosts, with a fingerprint per failing stack.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${RETSNOOP_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${RETSNOOP_DEB_HOMEPAGE}")
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
# A cross build packages for its target, not for the machine that runs dpkg.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
  set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE arm64)
endif()
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# The binary is linked statically: no library to depend on.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "")
include(CPack)
