#include "cli/tick_option_warning.hpp"

namespace tband::cli {

std::string tick_option_warning(const UnusedTickOption& unused) {
  switch (unused.option) {
    case UnusedTickOption::Option::kTsResolution:
      return "--ts-resolution-ns has no effect on " + unused.input +
             ", a ThreadX trace buffer: give its timer's rate with --threadx-clock-hz";
    case UnusedTickOption::Option::kThreadxClock:
      return "--threadx-clock-hz has no effect on tband traces (" + unused.input +
             "): their tick length is in the trace, or given with --ts-resolution-ns";
  }
  return "a tick option has no effect on " + unused.input;  // not reached: every option is named above
}

}  // namespace tband::cli
