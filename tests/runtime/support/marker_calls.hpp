// Every marker hook, called with arguments from arg(): for the tests that
// show a switched-off hook evaluates nothing.
#pragma once

#include "tband.h"

namespace tband::test {

template <class Arg>
void call_every_marker_hook([[maybe_unused]] Arg&& arg) {
  tband_evtmarker_name(arg(), "x");
  tband_evtmarker(arg(), "x");
  tband_evtmarker_begin(arg(), "x");
  tband_evtmarker_end(arg());
  tband_valmarker_name(arg(), "x");
  tband_valmarker(arg(), arg());
}

}  // namespace tband::test
