// A BTF built in memory with libbpf's btf__add_* writer, for tests of code that reads types.
#pragma once

#include <bpf/btf.h>
#include <gtest/gtest.h>

#include <initializer_list>
#include <utility>

namespace retsnoop::test_support {

class SyntheticBtf {
 public:
  SyntheticBtf() : btf_(btf__new_empty()) {}
  ~SyntheticBtf() { btf__free(btf_); }
  SyntheticBtf(const SyntheticBtf&) = delete;
  SyntheticBtf& operator=(const SyntheticBtf&) = delete;

  struct btf* get() const {
    return btf_;
  }

  int int_type(const char* name, int size, int encoding) {
    return checked(btf__add_int(btf_, name, size, encoding));
  }
  int ptr(int to) { return checked(btf__add_ptr(btf_, to)); }
  int konst(int to) { return checked(btf__add_const(btf_, to)); }
  int typedef_of(const char* name, int to) { return checked(btf__add_typedef(btf_, name, to)); }
  int array(int elem, int n) {
    int idx = int_type("__ARRAY_SIZE_TYPE__", 4, 0);
    return checked(btf__add_array(btf_, idx, elem, n));
  }
  // {name, type, bit offset, bitfield size}
  struct Field {
    const char* name;
    int type;
    int bit_off;
    int bits = 0;
  };
  int composite(bool is_union, const char* name, int size, std::initializer_list<Field> fields) {
    int id =
        checked(is_union ? btf__add_union(btf_, name, size) : btf__add_struct(btf_, name, size));
    for (const Field& f : fields) ok(btf__add_field(btf_, f.name, f.type, f.bit_off, f.bits));
    return id;
  }
  int structure(const char* name, int size, std::initializer_list<Field> fields) {
    return composite(false, name, size, fields);
  }
  int enumeration(const char* name, int size,
                  std::initializer_list<std::pair<const char*, int64_t>> values) {
    int id = checked(btf__add_enum(btf_, name, size));
    for (const auto& [n, v] : values) ok(btf__add_enum_value(btf_, n, v));
    return id;
  }
  // {name, type}; a {nullptr, 0} last parameter makes the prototype variadic.
  int proto(int ret, std::initializer_list<std::pair<const char*, int>> params) {
    int id = checked(btf__add_func_proto(btf_, ret));
    for (const auto& [n, t] : params) ok(btf__add_func_param(btf_, n ? n : "", t));
    return id;
  }
  int func(const char* name, int proto_id) {
    return checked(btf__add_func(btf_, name, BTF_FUNC_GLOBAL, proto_id));
  }

  static void ok(int err) { EXPECT_EQ(err, 0) << "btf__add_* failed"; }
  static int checked(int id) {
    EXPECT_GT(id, 0) << "btf__add_* failed";
    return id;
  }

 private:
  struct btf* btf_;
};

}  // namespace retsnoop::test_support
