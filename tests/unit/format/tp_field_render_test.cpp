// -A: a classic tracepoint's fields as the renderer shows them, planned from format text and
// decoded from bytes laid out as the kernel's record.
#include <gtest/gtest.h>

#include <cstring>
#include <nlohmann/json.hpp>

#include "discovery/probe_args_plan.h"
#include "format/arg_render.h"

namespace retsnoop {
namespace {

constexpr const char* kFormat =
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
    "\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
    "\tfield:char comm[16];\toffset:16;\tsize:16;\tsigned:0;\n"
    "\tfield:const void * skb;\toffset:32;\tsize:8;\tsigned:0;\n"
    "\tfield:u16 ports[4];\toffset:40;\tsize:8;\tsigned:0;\n"
    "\tfield:bool ok;\toffset:48;\tsize:1;\tsigned:0;\n"
    "\tfield:long delta;\toffset:56;\tsize:8;\tsigned:1;\n";

template <typename T>
void put_field(std::vector<uint8_t>& rec, size_t off, T v) {
  std::memcpy(rec.data() + off, &v, sizeof(v));
}

class TpFieldRender : public ::testing::Test {
 protected:
  FuncArgs plan = plan_tp_args(kFormat);
  CapturedArgs cap;
  ArgRenderOptions opts;

  void SetUp() override {
    cap.slots.assign(RS_MAX_ARG_SLOTS, 0);
    cap.slots[0] = 0xffff888000001000;
    cap.lens.assign(RS_MAX_ARG_SLOTS, 0);
    cap.data.resize(RS_MAX_ARG_SLOTS);
    std::vector<uint8_t> rec(64);
    put<int32_t>(rec, 12, -2);
    std::memcpy(rec.data() + 16, "true", 5);
    put<uint64_t>(rec, 32, 0xffff888001234560);
    put<uint16_t>(rec, 40, 80);
    put<uint16_t>(rec, 42, 443);
    put<uint8_t>(rec, 48, 1);
    put<int64_t>(rec, 56, -5);
    set(0, rec);
    set(1, {'/', 'b', 'i', 'n', '/', 't', 'r', 'u', 'e', 0});
  }

  void set(size_t i, std::vector<uint8_t> bytes) {
    cap.lens[i] = static_cast<int32_t>(bytes.size());
    cap.data[i] = std::move(bytes);
  }
};

TEST_F(TpFieldRender, CompactShowsEveryFieldByItsFormatType) {
  std::vector<std::string> lines = arg_lines(plan, cap, opts);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0],
            "› filename='/bin/true' pid=-2 comm='true' skb=0xffff888001234560 ports=[80,443] "
            "ok=true delta=-5");
}

TEST_F(TpFieldRender, JsonHasTypedValues) {
  nlohmann::json j = nlohmann::json::parse(args_json(plan, cap, opts));
  EXPECT_EQ(j["filename"], "/bin/true");
  EXPECT_EQ(j["pid"], -2);
  EXPECT_EQ(j["comm"], "true");
  EXPECT_EQ(j["skb"], 0xffff888001234560);
  EXPECT_EQ(j["ports"], nlohmann::json::array({80, 443}));
  EXPECT_EQ(j["ok"], true);
  EXPECT_EQ(j["delta"], -5);
}

TEST_F(TpFieldRender, CutStringsAndRecordsAreMarked) {
  set(1, {'/', 'b', 'i'});  // max-str-arg-size reached before the NUL
  cap.data[0].resize(36);   // max-sized-arg-size reached inside skb
  cap.lens[0] = 36;
  std::vector<std::string> lines = arg_lines(plan, cap, opts);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0],
            "› filename='/bi'... pid=-2 comm='true' skb=[...] ports=[...] ok=[...] delta=[...]");
  nlohmann::json j = nlohmann::json::parse(args_json(plan, cap, opts));
  EXPECT_EQ(j["filename"], nlohmann::json({{"value", "/bi"}, {"truncated", true}}));
}

TEST_F(TpFieldRender, EmptyAndUnreadableDataLocFields) {
  set(1, {});
  EXPECT_EQ(arg_lines(plan, cap, opts)[0].substr(0, 16), "› filename='' ");
  cap.lens[1] = RS_ARG_ERR_BUDGET;
  cap.data[1].clear();
  std::string line = arg_lines(plan, cap, opts)[0];
  EXPECT_NE(line.find("filename=&<over budget 0xffff888000001008>"), std::string::npos) << line;
}

}  // namespace
}  // namespace retsnoop
