// tband_configENABLE 0: every API call compiles to nothing or to a constant,
// evaluates no argument, and needs no tracer code: this executable links no
// runtime library at all (see CMakeLists.txt). The same from C11 in
// disabled_calls.c.
#include <gtest/gtest.h>

#include "marker_calls.hpp"
#include "tband.h"

extern "C" int tband_disabled_c_calls(void);

namespace {

int g_evaluated = 0;
[[maybe_unused]] int side_effect() { return ++g_evaluated; }  // never called: the point

TEST(Disabled, HooksAreNothingAndQueriesConstants) {
  static_assert(tband_configENABLE == 0);
  tband_gather_system_metadata();
  tband_isr_name(side_effect(), "x");
  tband_isr_enter(side_effect());
  tband_isr_exit(side_effect());
  tband::test::call_every_marker_hook(side_effect);
  EXPECT_EQ(g_evaluated, 0);
  EXPECT_FALSE(tband_tracing_enabled());
  EXPECT_TRUE(tband_tracing_finished());
  EXPECT_TRUE(tband_tracing_backend_finished(side_effect()));
  EXPECT_EQ(tband_get_dropped_evt_cnt(), 0u);
  EXPECT_EQ(tband_start_streaming(), 0);
  EXPECT_EQ(tband_restart_streaming(), 0);
  EXPECT_EQ(tband_stop_streaming(), 0);
  EXPECT_EQ(tband_trigger_snapshot(), 0);
  EXPECT_EQ(tband_stop_snapshot(), 0);
  EXPECT_EQ(tband_reset_snapshot(), 0);
  EXPECT_EQ(tband_start_post_mortem(), 0);
  EXPECT_EQ(tband_stop_post_mortem(), 0);
  EXPECT_EQ(tband_get_metadata_buf(side_effect()), nullptr);
  EXPECT_EQ(tband_get_metadata_buf_amnt(side_effect()), 0u);
  EXPECT_EQ(tband_get_core_snapshot_buf(side_effect()), nullptr);
  EXPECT_EQ(tband_get_core_snapshot_buf_amnt(side_effect()), 0u);
  EXPECT_EQ(tband_get_post_mortem_buf(), nullptr);
  EXPECT_EQ(tband_get_post_mortem_buf_size(), 0u);
  EXPECT_EQ(g_evaluated, 0);
  EXPECT_EQ(tband_disabled_c_calls(), 0);
}

}  // namespace
