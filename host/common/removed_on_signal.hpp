// Files that must not outlive the command even when a signal ends it: a
// Ctrl-C (SIGINT), SIGTERM or SIGHUP removes every file registered here,
// then ends the process as the signal would have. Only where nobody else
// handles those signals (tband record takes SIGINT and SIGTERM itself).
#pragma once

#include <string>

namespace tband {

/// Removes `path` if one of those signals ends the process. Up to 8 files at
/// a time; a path of PATH_MAX bytes or more is not registered (the normal
/// paths still remove it).
void remove_on_signal(const std::string& path);

/// Takes `path` off that list (it was removed, or it became the user's file).
void keep_on_signal(const std::string& path);

}  // namespace tband
