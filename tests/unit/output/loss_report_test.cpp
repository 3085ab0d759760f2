#include "output/loss_report.h"

#include <gtest/gtest.h>

namespace retsnoop {
namespace {

// 1000 reported: 100 dropped by BPF, 850 received (5 incomplete), 30 of them filtered, 20 refused
// by the full print queue, 700 printed; 50 never read and 100 queued when printing stopped.
SessionCounts flood() {
  return {.reported = 1000,
          .dropped = 100,
          .not_started = 0,
          .received = 850,
          .incomplete = 5,
          .filtered = 30,
          .queue_full = 20,
          .printed = 700};
}

TEST(LossReport, EverySessionIsAccountedFor) {
  SessionCounts c = flood();
  EXPECT_EQ(c.lost(), 270u);
  EXPECT_EQ(final_loss_report(c),
            "Lost 270 of 1000 sessions: 100 dropped (BPF ring buffer full, consider increasing "
            "-C bpf.ringbuf-size), 20 not printed (print queue full), 150 not printed before the "
            "stop.\n"
            "5 sessions printed incomplete: some of their records did not fit in the BPF ring "
            "buffer.\n");
}

TEST(LossReport, NothingToSayWhenEverythingWasPrinted) {
  SessionCounts c{.reported = 10, .received = 10, .filtered = 3, .printed = 7};
  EXPECT_EQ(c.lost(), 0u);
  EXPECT_EQ(final_loss_report(c), "");
}

TEST(LossReport, FullSessionMapIsReportedEvenWithoutLosses) {
  SessionCounts c{.reported = 2, .not_started = 4, .received = 2, .printed = 2};
  EXPECT_EQ(final_loss_report(c),
            "4 sessions could not start: the session map was full (consider increasing -C "
            "bpf.sessions-size).\n");
}

TEST(LossReport, LiveLineSaysWhatChangedSinceTheLastOne) {
  SessionCounts before = flood();
  SessionCounts now = before;
  EXPECT_EQ(live_loss_line(before, now), "");
  now.dropped += 40;
  now.not_started += 2;
  EXPECT_EQ(live_loss_line(before, now),
            "sessions lost in the last second: 40 dropped (BPF ring buffer full), 2 not "
            "started (session map full)\n");
}

// -C stacks.repeats=count: 20 reported and printed, 19,980 counted; 19,900 of those printed as
// counts, 30 with a first session filtered out, 50 still waiting at the stop.
TEST(LossReport, CountedRepeatsAddUpToEveryFailure) {
  SessionCounts c{.reported = 20, .received = 20, .printed = 20};
  c.counted = 19980;
  c.counted_printed = 19900;
  c.counted_unprinted = 30;
  EXPECT_EQ(c.lost(), 0u);
  EXPECT_EQ(c.counted_lost(), 50u);
  EXPECT_EQ(final_loss_report(c),
            "Repeats: 19980 sessions counted as repeats of reported ones (20 reported + 19980 "
            "counted = 20000); 19900 printed as counts, 30 not printed with the sessions they "
            "repeat, 50 not printed before the stop.\n");
}

}  // namespace
}  // namespace retsnoop
