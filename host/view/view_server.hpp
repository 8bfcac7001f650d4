// The live view's HTTP server (cpp-httplib, as tband serve): the page at "/"
// (inline HTML, CSS and JS: nothing from the internet), the newest snapshot
// at "/snapshot", the number of event streams open at "/viewers", and the
// snapshots at "/events" as Server-Sent Events, each client sent the newest snapshot of
// the slot when it has written the previous one: a slow client skips
// snapshots, a stuck one blocks only its own connection's thread, and the
// recording never waits for any of them.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "view/live_view.hpp"

namespace tband::view {

/// Parses "--view [ADDR:]PORT": "" gives 127.0.0.1 and a free port.
/// Throws std::invalid_argument with a one-line reason.
struct ViewAddress {
  std::string host = "127.0.0.1";
  int port = 0;
};
[[nodiscard]] ViewAddress parse_view_address(const std::string& text);

/// The page (view_page.cpp).
[[nodiscard]] const std::string& view_page();

class ViewServer {
 public:
  /// Binds now and serves from a thread of its own until destroyed.
  /// Throws std::runtime_error (port taken, address unknown).
  ViewServer(ViewAddress address, SnapshotSlot& slot);
  ~ViewServer();
  ViewServer(const ViewServer&) = delete;
  ViewServer& operator=(const ViewServer&) = delete;

  [[nodiscard]] std::string url() const;
  /// Waits until every connected client was sent the slot's newest snapshot
  /// (the final figures at the end of a recording), at most `timeout`.
  void wait_delivered(std::chrono::milliseconds timeout);
  [[nodiscard]] std::uint64_t clients() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tband::view
