# Fixture BTF for discovery tests: a tiny C file compiled for the BPF target with -g carries a
# .BTF section that libbpf's btf__parse() reads from the ELF, like /sys/kernel/btf/vmlinux.
# Output: ${CMAKE_CURRENT_BINARY_DIR}/discovery_btf/vmlinux (tests see it via RS_TEST_BINARY_DIR).
set(rs_disc_btf_src ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/discovery/btf_funcs.c)
set(rs_disc_btf_out ${CMAKE_CURRENT_BINARY_DIR}/discovery_btf/vmlinux)
add_custom_command(
  OUTPUT ${rs_disc_btf_out}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/discovery_btf
  COMMAND ${BPF_CLANG} -target bpf -g -O2 -Wall -Werror -c ${rs_disc_btf_src} -o ${rs_disc_btf_out}
  DEPENDS ${rs_disc_btf_src}
  COMMENT "BTF fixture for discovery tests"
  VERBATIM)
add_custom_target(discovery_btf_fixture DEPENDS ${rs_disc_btf_out})
add_dependencies(discovery_tests discovery_btf_fixture)
# The line-plan tests read the symbolizer's DWARF fixture (symbolize/fixtures.cmake).
add_dependencies(discovery_tests rs_symbolize_fixtures)
