// The version of this build, as --version prints it and the package is named (cmake/Version.cmake).
#pragma once

namespace retsnoop {

const char* retsnoop_version();

}  // namespace retsnoop
