// A FuncTable built by name for tests: ids are assigned in order of first use.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "discovery/func_info.h"

namespace retsnoop::test {

class TestFuncs {
 public:
  uint32_t add(const std::string& name, RetKind ret, const std::string& module = "") {
    table.push_back(FuncInfo{.name = name, .module = module, .ret = ret});
    return static_cast<uint32_t>(table.size() - 1);
  }

  uint32_t id(const std::string& name) const {
    for (size_t i = 0; i < table.size(); ++i)
      if (table[i].name == name) return static_cast<uint32_t>(i);
    ADD_FAILURE() << "no test function " << name;
    return 0;
  }

  FuncTable table;
};

}  // namespace retsnoop::test
