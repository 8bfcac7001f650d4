#include "serve/opener_page.hpp"

#include <cstdio>

#include "common/markup.hpp"

namespace tband {

namespace {

// A JavaScript string literal that is also safe inside <script>: every
// character outside plain ASCII letters, digits and a few marks as \uXXXX.
std::string js_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    const bool plain = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') ||
                       c == '.' || c == '-' || c == '_' || c == ':' || c == '/' || c == ' ' || c == '?' ||
                       c == '=' || c == '#' || c == '!';
    if (plain) {
      out += c;
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", u);
      out += escaped;
    }
  }
  return out + "\"";
}

// The script: fetch the trace, open the UI, PING until PONG, post the buffer.
// A blocked pop-up (no click yet) leaves the button to do it.
constexpr const char* kScript = R"JS(
const statusLine = document.getElementById('status');
const button = document.getElementById('open');
const uiOrigin = new URL(UI_URL).origin;
let trace = null;
function say(text) { statusLine.textContent = text; }
function openInPerfetto() {
  const ui = window.open(UI_URL);
  if (!ui) {
    say('The browser blocked the Perfetto tab: press "Open in Perfetto".');
    button.hidden = false;
    return;
  }
  say('Waiting for the Perfetto UI to load...');
  const ping = setInterval(() => ui.postMessage('PING', uiOrigin), 50);
  function onMessage(event) {
    if (event.source !== ui || event.data !== 'PONG') return;
    clearInterval(ping);
    window.removeEventListener('message', onMessage);
    ui.postMessage({perfetto: {buffer: trace, title: TRACE_NAME, fileName: TRACE_NAME}}, uiOrigin);
    say('Sent to the Perfetto UI (' + trace.byteLength + ' bytes). Press the button to send it again.');
    button.hidden = false;
  }
  window.addEventListener('message', onMessage);
}
button.addEventListener('click', openInPerfetto);
fetch('/' + TRACE_NAME, {cache: 'no-store'})
  .then((response) => {
    if (!response.ok) throw new Error('HTTP ' + response.status);
    return response.arrayBuffer();
  })
  .then((buffer) => { trace = buffer; openInPerfetto(); })
  .catch((error) => say('Could not fetch the trace: ' + error.message +
                        ' (a server started with --once serves it once).'));
)JS";

}  // namespace

std::string url_origin(const std::string& url) {
  const std::size_t scheme = url.find("://");
  if (scheme == std::string::npos) {
    return url;
  }
  const std::size_t path = url.find_first_of("/?#", scheme + 3);
  return path == std::string::npos ? url : url.substr(0, path);
}

std::string opener_page_html(const OpenerPage& page) {
  const std::string name = escape_markup(page.trace_name);
  std::string html = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>tband serve: " + name +
                     "</title></head>\n<body>\n<h1>tband serve</h1>\n<p>Serving <a href=\"/" + name + "\">" + name +
                     "</a> (" + std::to_string(page.trace_bytes) + " bytes) to <a href=\"" +
                     escape_markup(page.ui_url) + "\">" + escape_markup(page.ui_url) + "</a>.</p>\n" +
                     "<p id=\"status\">Fetching the trace...</p>\n" +
                     "<p><button id=\"open\" hidden>Open in Perfetto</button></p>\n";
  if (!page.deep_link.empty()) {
    html += "<p>Or open it by <a href=\"" + escape_markup(page.deep_link) + "\">the UI's link</a>.</p>\n";
  }
  html += "<script>\nconst UI_URL = " + js_string(page.ui_url) + ";\nconst TRACE_NAME = " +
          js_string(page.trace_name) + ";" + kScript + "</script>\n</body></html>\n";
  return html;
}

}  // namespace tband
