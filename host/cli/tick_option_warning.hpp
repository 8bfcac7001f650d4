// How the CLI words a tick option that did nothing (a warning line's text).
#pragma once

#include <string>

#include "app/conversion.hpp"

namespace tband::cli {

/// E.g. "--ts-resolution-ns has no effect on x.trx, a ThreadX trace buffer: ...".
[[nodiscard]] std::string tick_option_warning(const UnusedTickOption& unused);

}  // namespace tband::cli
