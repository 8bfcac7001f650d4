// --view for tband record and tband serve --live: the live view's observer,
// slot and server, hooked to a recording's callbacks.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "record/recorder.hpp"
#include "view/live_view.hpp"
#include "view/view_server.hpp"

namespace tband::cli {

class ViewHookup {
 public:
  /// Binds the server now ("" : 127.0.0.1, a free port). `mode`: "record" or
  /// "follow". Throws std::invalid_argument (a bad address), std::runtime_error.
  ViewHookup(const std::string& address, std::string mode);
  /// The recording tells the view what happens.
  void attach(record::RecorderOptions& recorder);
  [[nodiscard]] std::string url() const { return server_->url(); }
  /// After the recording: the viewers get the final figures (bounded wait).
  void finish() { server_->wait_delivered(std::chrono::milliseconds{3000}); }

 private:
  view::LiveView view_;
  view::SnapshotSlot slot_;
  std::string mode_;
  std::unique_ptr<view::ViewServer> server_;
};

/// A ViewHookup for `command` ("tband record"); on failure prints why and
/// returns nullptr with `exit_code` set (usage: a bad address; output: the port).
[[nodiscard]] std::unique_ptr<ViewHookup> start_view(const std::string& address, std::string mode,
                                                     std::string_view command, int& exit_code);

}  // namespace tband::cli
