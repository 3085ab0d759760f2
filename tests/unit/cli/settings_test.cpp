#include "cli/settings.h"

#include <gtest/gtest.h>

#include <string>

#include "util/error.h"

namespace retsnoop {
namespace {

constexpr const char* kConfigHint = "try 'retsnoop --config-help' for the list of settings";

Options with(std::string_view key_value) {
  Options o;
  apply_setting(o, key_value);
  return o;
}

void expect_setting_error(std::string_view key_value, const std::string& message) {
  Options o;
  try {
    apply_setting(o, key_value);
    ADD_FAILURE() << key_value << " was accepted";
  } catch (const UserError& e) {
    EXPECT_EQ(e.what(), message);
    EXPECT_EQ(e.hint(), kConfigHint);
  }
}

TEST(Settings, RingbufSize) {
  EXPECT_EQ(with("bpf.ringbuf-size=4096").ringbuf_size, 4096u);
  EXPECT_EQ(with("bpf.ringbuf-size=64K").ringbuf_size, 64u << 10);
  EXPECT_EQ(with("bpf.ringbuf-size=16m").ringbuf_size, 16u << 20);
  EXPECT_EQ(with("bpf.ringbuf-size=2G").ringbuf_size, 2u << 30);
  // 4G and more used to wrap to the kernel's u32 and reach the load as 0.
  for (const char* bad : {"2048", "12K", "3G", "4G", "4096M", "8G", "17179869183G"}) {
    expect_setting_error(std::string("bpf.ringbuf-size=") + bad,
                         std::string("Invalid value '") + bad +
                             "' for bpf.ringbuf-size: expected a power of two from 4096 to 2G");
  }
}

TEST(Settings, SessionsSize) {
  EXPECT_EQ(with("bpf.sessions-size=100").sessions_size, 100u);
  EXPECT_EQ(with("bpf.sessions-size=4194304").sessions_size, 4194304u);
  for (const char* bad : {"0", "4194305", "4294967296"}) {
    expect_setting_error(std::string("bpf.sessions-size=") + bad,
                         std::string("Invalid value '") + bad +
                             "' for bpf.sessions-size: expected an integer from 1 to 4194304");
  }
}

TEST(Settings, SummaryInterval) {
  EXPECT_EQ(Options().summary_interval_s, 0u);
  EXPECT_EQ(with("summary.interval=0").summary_interval_s, 0u);
  EXPECT_EQ(with("summary.interval=3600").summary_interval_s, 3600u);
  for (const char* bad : {"-1", "86401", "1h"}) {
    expect_setting_error(
        std::string("summary.interval=") + bad,
        std::string("Invalid value '") + bad +
            "' for summary.interval: expected a number of seconds from 0 to 86400");
  }
}

// Shell completions offer these words: each must be a value the setting accepts.
TEST(Settings, CompletionWordsAreAccepted) {
  for (const SettingInfo& s : setting_infos()) {
    for (const std::string& word : s.words)
      EXPECT_NO_THROW(with(s.key + "=" + word)) << s.key << "=" << word;
  }
}

TEST(Settings, SymbolizationMode) {
  EXPECT_EQ(with("stacks.symb-mode=none").symbolize, SymbLevel::None);
  EXPECT_EQ(with("stacks.symb-mode=lines").symbolize, SymbLevel::Lines);
  EXPECT_EQ(with("stacks.symb-mode=inlines").symbolize, SymbLevel::Inlines);
  expect_setting_error("stacks.symb-mode=all",
                       "Invalid value 'all' for stacks.symb-mode: expected one of none (n), lines "
                       "(linenum, l), inlines (i)");
}

TEST(Settings, SymbolizationModeUpstreamSpellings) {
  EXPECT_EQ(with("stacks.symb-mode=linenum").symbolize, SymbLevel::Lines);
  EXPECT_EQ(with("stacks.symb-mode=n").symbolize, SymbLevel::None);
  EXPECT_EQ(with("stacks.symb-mode=l").symbolize, SymbLevel::Lines);
  EXPECT_EQ(with("stacks.symb-mode=i").symbolize, SymbLevel::Inlines);
  EXPECT_EQ(with("stacks.symb-mode=INLINES").symbolize, SymbLevel::Inlines);
}

TEST(Settings, BooleanStackSettings) {
  EXPECT_TRUE(with("stacks.unfiltered=y").stacks_unfiltered);
  EXPECT_TRUE(with("stacks.emit-addrs=true").stacks_emit_addrs);
  EXPECT_TRUE(with("stacks.dec-offs=1").stacks_dec_offs);
  Options o;
  apply_setting(o, "stacks.dec-offs=yes");
  apply_setting(o, "stacks.dec-offs=n");
  EXPECT_FALSE(o.stacks_dec_offs);
  expect_setting_error(
      "stacks.emit-addrs=maybe",
      "Invalid value 'maybe' for stacks.emit-addrs: expected y/n, yes/no, true/false, "
      "on/off or 1/0 (any case)");
  expect_setting_error(
      "stacks.emit-addrs=",
      "Invalid value '' for stacks.emit-addrs: expected y/n, yes/no, true/false, on/off "
      "or 1/0 (any case)");
}

TEST(Settings, BooleansInAnyCase) {
  EXPECT_TRUE(with("stacks.unfiltered=ON").stacks_unfiltered);
  EXPECT_TRUE(with("stacks.emit-addrs=True").stacks_emit_addrs);
  EXPECT_EQ(with("attach.kprobe-events=OFF").kprobe_events, false);
  EXPECT_EQ(with("attach.kprobe-events=No").kprobe_events, false);
}

// auto leaves the choice to the kernel (kprobe_events_pay_off()).
TEST(Settings, KprobeEventsAutoOrForced) {
  EXPECT_FALSE(with("attach.kprobe-events=auto").kprobe_events.has_value());
  EXPECT_EQ(with("attach.kprobe-events=yes").kprobe_events, true);
  EXPECT_FALSE(with("bpf.ringbuf-size=1M").kprobe_events.has_value());
}

TEST(Settings, LbrMaxCount) {
  EXPECT_EQ(with("fmt.lbr-max-count=10").lbr_max_count, 10);
  expect_setting_error(
      "fmt.lbr-max-count=0",
      "Invalid value '0' for fmt.lbr-max-count: expected an integer from 1 to 2147483647");
}

TEST(Settings, UnknownKeyAndMalformedArgument) {
  expect_setting_error("bpf.ringbuf=1", "Unrecognized setting 'bpf.ringbuf'");
  expect_setting_error("=1", "Unrecognized setting ''");
  expect_setting_error("bpf.ringbuf-size",
                       "Invalid -C argument 'bpf.ringbuf-size': expected KEY=VALUE");
}

TEST(Settings, ValueMayContainEquals) {
  // Only the first '=' separates key and value.
  expect_setting_error("stacks.symb-mode=a=b",
                       "Invalid value 'a=b' for stacks.symb-mode: expected one of none (n), lines "
                       "(linenum, l), inlines (i)");
}

TEST(Settings, HelpListsEveryKeyWithItsDefault) {
  std::string help = settings_help();
  for (const char* line :
       {"bpf.ringbuf-size (default: 4M)", "bpf.sessions-size (default: 4096)",
        "stacks.symb-mode (default: inlines when a vmlinux with DWARF is found, else none)",
        "stacks.unfiltered (default: no)", "stacks.emit-addrs (default: no)",
        "stacks.dec-offs (default: no)", "fmt.lbr-max-count (default: all)"}) {
    EXPECT_NE(help.find(line), std::string::npos) << line;
  }
}

TEST(Settings, ArgSizeLimits) {
  Options defaults;
  EXPECT_EQ(defaults.arg_limits.max_total_args_size, 3072u);
  EXPECT_EQ(defaults.arg_limits.max_sized_arg_size, 256u);
  EXPECT_EQ(defaults.arg_limits.max_str_arg_size, 256u);
  EXPECT_EQ(with("args.max-total-args-size=65536").arg_limits.max_total_args_size, 65536u);
  EXPECT_EQ(with("args.max-sized-arg-size=1024").arg_limits.max_sized_arg_size, 1024u);
  EXPECT_EQ(with("args.max-str-arg-size=16384").arg_limits.max_str_arg_size, 16384u);
  for (const char* bad : {"0", "65537", "1000000", "-1", "4K", "x"}) {
    expect_setting_error(std::string("args.max-total-args-size=") + bad,
                         std::string("Invalid value '") + bad +
                             "' for args.max-total-args-size: expected an integer from 1 to 65536");
  }
  for (const char* key : {"args.max-sized-arg-size", "args.max-str-arg-size"}) {
    expect_setting_error(
        std::string(key) + "=16385",
        std::string("Invalid value '16385' for ") + key + ": expected an integer from 1 to 16384");
  }
}

TEST(Settings, ArgCaptureRawPtrs) {
  EXPECT_FALSE(Options().arg_limits.capture_raw_ptrs);
  EXPECT_TRUE(with("args.capture-raw-ptrs=yes").arg_limits.capture_raw_ptrs);
  EXPECT_FALSE(with("args.capture-raw-ptrs=off").arg_limits.capture_raw_ptrs);
}

TEST(Settings, ArgFmtMode) {
  EXPECT_EQ(Options().arg_fmt_mode, ArgFmtMode::Compact);
  EXPECT_EQ(with("args.fmt-mode=multiline").arg_fmt_mode, ArgFmtMode::Multiline);
  EXPECT_EQ(with("args.fmt-mode=V").arg_fmt_mode, ArgFmtMode::Verbose);
  EXPECT_EQ(with("args.fmt-mode=Compact").arg_fmt_mode, ArgFmtMode::Compact);
  EXPECT_EQ(with("args.fmt-mode=m").arg_fmt_mode, ArgFmtMode::Multiline);
  expect_setting_error(
      "args.fmt-mode=fancy",
      "Invalid value 'fancy' for args.fmt-mode: expected one of compact (c), multiline "
      "(m), verbose (v)");
}

TEST(Settings, ArgFmtMaxWidth) {
  EXPECT_EQ(Options().arg_max_width, 120u);
  EXPECT_EQ(with("args.fmt-max-arg-width=0").arg_max_width, 0u);
  EXPECT_EQ(with("args.fmt-max-arg-width=250").arg_max_width, 250u);
  for (const char* bad : {"251", "-1", "wide"}) {
    expect_setting_error(std::string("args.fmt-max-arg-width=") + bad,
                         std::string("Invalid value '") + bad +
                             "' for args.fmt-max-arg-width: expected an integer from 0 to 250");
  }
}

TEST(Settings, HelpGivesEveryKeyItsValues) {
  std::string help = settings_help();
  for (const char* key :
       {"bpf.ringbuf-size", "bpf.sessions-size", "attach.kprobe-events", "stacks.symb-mode",
        "stacks.unfiltered", "stacks.emit-addrs", "stacks.dec-offs", "fmt.lbr-max-count",
        "args.max-total-args-size", "args.max-sized-arg-size", "args.max-str-arg-size",
        "args.capture-raw-ptrs", "args.fmt-mode", "args.fmt-max-arg-width"}) {
    size_t at = help.find(std::string("  ") + key + " (default: ");
    ASSERT_NE(at, std::string::npos) << key;
    size_t next_line = help.find('\n', at) + 1;
    EXPECT_EQ(help.compare(next_line, 14, "      Values: "), 0) << key;
  }
  EXPECT_NE(help.find("Values: none (n), lines (linenum, l), inlines (i)"), std::string::npos);
  EXPECT_NE(help.find("Values: 1 to 4194304"), std::string::npos);
  EXPECT_NE(help.find("Values: y/n, yes/no, true/false, on/off or 1/0 (any case)"),
            std::string::npos);
}

}  // namespace
}  // namespace retsnoop
