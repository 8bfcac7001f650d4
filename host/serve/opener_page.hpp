// The page `tband serve` shows at "/": it fetches the trace from the same
// server and hands it to ui.perfetto.dev with the postMessage handshake the UI
// documents (window.open, 'PING' until the UI answers 'PONG', then
// {perfetto: {buffer, title, fileName}}), so any port works: the UI fetches
// `?url=` links only from 127.0.0.1:9001, but takes a posted buffer from any
// page. Inline HTML and JavaScript; nothing is loaded but the trace and the UI.
#pragma once

#include <cstddef>
#include <string>

namespace tband {

struct OpenerPage {
  std::string trace_name;  // the trace's path on the server ("/" + name): URL-safe characters only
  std::size_t trace_bytes = 0;
  std::string ui_url;       // the Perfetto UI to open (https://ui.perfetto.dev; a stand-in in tests)
  std::string deep_link;    // the UI's ?url= link when it can fetch from here (port 9001), else ""
};

/// The page's HTML. Strings are escaped for HTML and for JavaScript.
[[nodiscard]] std::string opener_page_html(const OpenerPage& page);

/// The origin (scheme://host[:port]) of a URL, which postMessage addresses;
/// the URL itself if it has no path.
[[nodiscard]] std::string url_origin(const std::string& url);

}  // namespace tband
