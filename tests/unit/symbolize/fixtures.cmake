# Symbolizer fixtures: a tiny "kernel tree" (tests/unit/fixtures/symbolize) compiled with gcc like
# kernel objects are: from the tree root, paths relative to it, the tree prefix mapped away. One
# compile unit is given by absolute path, so both kinds of DW_AT_name are covered.
find_program(RS_FIXTURE_GCC gcc REQUIRED)
set(rs_sym_fix_src ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/symbolize)
set(rs_sym_fix_out ${CMAKE_CURRENT_BINARY_DIR}/fixtures/symbolize)
set(rs_sym_fix_inputs
  ${rs_sym_fix_src}/kernel/bpf/fixture_main.c
  ${rs_sym_fix_src}/fs/fixture_fs.c
  ${rs_sym_fix_src}/include/linux/fixture_inline.h)

# rs_sym_fixture(NAME FLAGS...): one fixture image built with the extra FLAGS.
function(rs_sym_fixture name)
  add_custom_command(
    OUTPUT ${rs_sym_fix_out}/${name}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${rs_sym_fix_out}
    COMMAND ${RS_FIXTURE_GCC} -O2 -no-pie -fno-pie -Iinclude -fdebug-prefix-map=${rs_sym_fix_src}=/build/linux
            -Wl,--build-id=sha1 ${ARGN} -o ${rs_sym_fix_out}/${name}
            kernel/bpf/fixture_main.c ${rs_sym_fix_src}/fs/fixture_fs.c
    WORKING_DIRECTORY ${rs_sym_fix_src}
    DEPENDS ${rs_sym_fix_inputs}
    COMMENT "Building symbolizer fixture ${name}"
    VERBATIM)
  set(rs_sym_fixtures ${rs_sym_fixtures} ${rs_sym_fix_out}/${name} PARENT_SCOPE)
endfunction()

rs_sym_fixture(vmlinux -g -gdwarf-5)
rs_sym_fixture(vmlinux-dwarf4 -g -gdwarf-4)
rs_sym_fixture(vmlinux-other -g -gdwarf-5 -DOTHER_BUILD)
rs_sym_fixture(vmlinux-nodwarf)
add_custom_target(rs_symbolize_fixtures DEPENDS ${rs_sym_fixtures})

add_dependencies(symbolize_tests rs_symbolize_fixtures)

# User-stack fixtures: one small PIE program, with DWARF, without, and stripped with its DWARF in
# a separate debug file (named after its build id by the test).
set(rs_user_fix_src ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/user_elf/user_target.c)
set(rs_user_fix_out ${CMAKE_CURRENT_BINARY_DIR}/fixtures/user_elf)
function(rs_user_fixture name)
  add_custom_command(
    OUTPUT ${rs_user_fix_out}/${name}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${rs_user_fix_out}
    COMMAND ${RS_FIXTURE_GCC} -O1 -fPIE -pie -fno-omit-frame-pointer -Wl,--build-id=sha1 ${ARGN}
            -o ${rs_user_fix_out}/${name} ${rs_user_fix_src}
    DEPENDS ${rs_user_fix_src}
    COMMENT "Building user-stack fixture ${name}"
    VERBATIM)
  set(rs_user_fixtures ${rs_user_fixtures} ${rs_user_fix_out}/${name} PARENT_SCOPE)
endfunction()
rs_user_fixture(user_target -g)
rs_user_fixture(user_target-nodwarf)
find_program(RS_FIXTURE_OBJCOPY objcopy REQUIRED)
add_custom_command(
  OUTPUT ${rs_user_fix_out}/user_target-stripped ${rs_user_fix_out}/user_target.debug
  COMMAND ${RS_FIXTURE_OBJCOPY} --only-keep-debug ${rs_user_fix_out}/user_target
          ${rs_user_fix_out}/user_target.debug
  COMMAND ${RS_FIXTURE_OBJCOPY} --strip-all ${rs_user_fix_out}/user_target
          ${rs_user_fix_out}/user_target-stripped
  DEPENDS ${rs_user_fix_out}/user_target
  COMMENT "Stripping user-stack fixture"
  VERBATIM)
# A PIE next to the shared library it calls, both with DWARF, found through its $ORIGIN run path.
set(rs_user_lib_src ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/user_elf/user_lib.c)
set(rs_user_lib_main_src ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/user_elf/user_lib_main.c)
add_custom_command(
  OUTPUT ${rs_user_fix_out}/libuser_lib.so ${rs_user_fix_out}/user_lib_main
  COMMAND ${CMAKE_COMMAND} -E make_directory ${rs_user_fix_out}
  COMMAND ${RS_FIXTURE_GCC} -O1 -g -fPIC -shared -fno-omit-frame-pointer -Wl,--build-id=sha1
          -o ${rs_user_fix_out}/libuser_lib.so ${rs_user_lib_src}
  COMMAND ${RS_FIXTURE_GCC} -O1 -g -fPIE -pie -fno-omit-frame-pointer -Wl,--build-id=sha1
          -o ${rs_user_fix_out}/user_lib_main ${rs_user_lib_main_src}
          -L${rs_user_fix_out} -luser_lib "-Wl,-rpath,$ORIGIN"
  DEPENDS ${rs_user_lib_src} ${rs_user_lib_main_src}
  COMMENT "Building user-stack fixture user_lib_main and its shared library"
  VERBATIM)
# Return types of every kind, in a library with DWARF and a copy without.
set(rs_user_ret_src ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/user_elf/user_returns.c)
add_custom_command(
  OUTPUT ${rs_user_fix_out}/libuser_returns.so ${rs_user_fix_out}/libuser_returns-nodwarf.so
  COMMAND ${CMAKE_COMMAND} -E make_directory ${rs_user_fix_out}
  COMMAND ${RS_FIXTURE_GCC} -O1 -g -fPIC -shared -o ${rs_user_fix_out}/libuser_returns.so
          ${rs_user_ret_src}
  COMMAND ${RS_FIXTURE_GCC} -O1 -fPIC -shared -o ${rs_user_fix_out}/libuser_returns-nodwarf.so
          ${rs_user_ret_src}
  DEPENDS ${rs_user_ret_src}
  COMMENT "Building user-stack fixture libuser_returns.so"
  VERBATIM)
# Symbol kinds for user-space function discovery: IFUNC, versions, no size, PLT.
set(rs_user_sym_src ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/user_elf/user_symbols_lib.c)
set(rs_user_sym_map ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/user_elf/user_symbols_lib.map)
add_custom_command(
  OUTPUT ${rs_user_fix_out}/libuser_symbols.so
  COMMAND ${CMAKE_COMMAND} -E make_directory ${rs_user_fix_out}
  COMMAND ${RS_FIXTURE_GCC} -O1 -fPIC -shared -Wl,--version-script=${rs_user_sym_map}
          -o ${rs_user_fix_out}/libuser_symbols.so ${rs_user_sym_src}
  DEPENDS ${rs_user_sym_src} ${rs_user_sym_map}
  COMMENT "Building user-stack fixture libuser_symbols.so"
  VERBATIM)
add_custom_target(rs_user_fixtures DEPENDS ${rs_user_fixtures} ${rs_user_fix_out}/libuser_symbols.so
                  ${rs_user_fix_out}/libuser_returns.so ${rs_user_fix_out}/libuser_returns-nodwarf.so
                  ${rs_user_fix_out}/user_target-stripped ${rs_user_fix_out}/user_target.debug
                  ${rs_user_fix_out}/libuser_lib.so ${rs_user_fix_out}/user_lib_main)
add_dependencies(symbolize_tests rs_user_fixtures)
# The run-path tests of discovery read user_lib_main.
add_dependencies(discovery_tests rs_user_fixtures)

# The symbolizer worker the unit tests start (worker_test_util.h).
add_executable(symbolizer_worker_host ${CMAKE_CURRENT_SOURCE_DIR}/symbolize/worker_host.cpp)
target_link_libraries(symbolizer_worker_host PRIVATE rs_symbolize rs_faults_from_env)
add_dependencies(symbolize_tests symbolizer_worker_host)
target_compile_definitions(symbolize_tests PRIVATE
  RS_WORKER_EXE="$<TARGET_FILE:symbolizer_worker_host>"
  RS_SERVICE_UNIT="${CMAKE_SOURCE_DIR}/packaging/systemd/retsnoop@.service")
