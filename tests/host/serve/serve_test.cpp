// The trace server answers a real HTTP request on loopback with the file's
// bytes and the CORS header ui.perfetto.dev needs, then stops by itself.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include <unistd.h>

#include <httplib.h>

#include "serve/opener_page.hpp"
#include "serve/static_files.hpp"
#include "serve/trace_server.hpp"
#include "trace_builder.hpp"

namespace tband::test {
namespace {

TEST(TraceServer, ServesTheFileOnceWithCorsHeaderThenStops) {
  TraceBuilder t;
  std::vector<std::uint8_t> bytes;
  for (int i = 0; i < 100000; ++i) bytes.push_back(static_cast<std::uint8_t>(i * 7));
  t.raw(bytes);
  const std::string path = t.write("served.pftrace");

  ServeOptions options;
  options.path = path;
  options.port = 0;  // any free port
  options.once = true;
  TraceServer server{options};
  ASSERT_GT(server.port(), 0);
  EXPECT_EQ(server.trace_url(), "http://127.0.0.1:" + std::to_string(server.port()) + "/served.pftrace");
  EXPECT_EQ(server.perfetto_url(), "https://ui.perfetto.dev/#!/?url=" + server.trace_url());
  std::thread serving([&] { server.run(); });

  httplib::Client client("127.0.0.1", server.port());
  client.set_connection_timeout(5);
  client.set_read_timeout(5);
  const auto response = client.Get("/served.pftrace", {{"Origin", "https://ui.perfetto.dev"}});
  ASSERT_TRUE(response) << httplib::to_string(response.error());
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(response->get_header_value("Access-Control-Allow-Origin"), "https://ui.perfetto.dev");
  EXPECT_EQ(response->body, std::string(bytes.begin(), bytes.end()));

  serving.join();  // returns because the server stopped after one fetch
  EXPECT_EQ(server.fetches(), 1u);
}

// On any port the page at "/" fetches the trace from this server and posts
// it to the UI (PING/PONG handshake); the ?url= link only where the UI can
// fetch it (port 9001). Strings in the page are escaped.
TEST(TraceServer, ThePageAtTheRootOpensTheTraceInTheUiOnAnyPort) {
  TraceBuilder t;
  t.raw({1, 2, 3});
  ServeOptions options;
  options.path = t.write("page.pftrace");
  options.port = 0;
  options.ui_url = "http://127.0.0.1:1/stand-in.html?a=\"</script>";
  TraceServer server{options};
  ASSERT_NE(server.port(), kPerfettoPort);
  EXPECT_FALSE(server.perfetto_can_fetch());
  EXPECT_EQ(server.index_url(), "http://127.0.0.1:" + std::to_string(server.port()) + "/");
  std::thread serving([&] { server.run(); });

  httplib::Client client("127.0.0.1", server.port());
  client.set_connection_timeout(5);
  client.set_read_timeout(5);
  const auto response = client.Get("/");
  server.stop();
  serving.join();
  ASSERT_TRUE(response) << httplib::to_string(response.error());
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(response->get_header_value("Content-Type"), "text/html; charset=utf-8");
  const std::string& page = response->body;
  EXPECT_NE(page.find("<a href=\"/page.pftrace\">page.pftrace</a> (3 bytes)"), std::string::npos) << page;
  EXPECT_NE(page.find("const TRACE_NAME = \"page.pftrace\";"), std::string::npos) << page;
  EXPECT_NE(page.find("postMessage('PING', uiOrigin)"), std::string::npos);
  EXPECT_NE(page.find("{perfetto: {buffer: trace, title: TRACE_NAME, fileName: TRACE_NAME}}"), std::string::npos);
  EXPECT_NE(page.find("const UI_URL = \"http://127.0.0.1:1/stand-in.html?a=\\u0022\\u003c/script\\u003e\";"),
            std::string::npos)
      << page;
  EXPECT_EQ(page.find("</script>\""), std::string::npos) << "the URL cannot end the script";
  EXPECT_EQ(page.find("#!/?url="), std::string::npos) << "no UI link that cannot load the trace";
  EXPECT_EQ(server.fetches(), 0u) << "the page is no fetch of the trace";
}

TEST(OpenerPage, UrlOrigin) {
  EXPECT_EQ(url_origin("https://ui.perfetto.dev"), "https://ui.perfetto.dev");
  EXPECT_EQ(url_origin("https://ui.perfetto.dev/#!/viewer"), "https://ui.perfetto.dev");
  EXPECT_EQ(url_origin("http://127.0.0.1:8080/x/ui.html?y"), "http://127.0.0.1:8080");
}

// --web: files under the directory only, with their types.
TEST(StaticFiles, OnlyRegularFilesUnderTheRoot) {
  namespace fs = std::filesystem;
  const fs::path base = fs::temp_directory_path() / ("tband_static_" + std::to_string(::getpid()));
  fs::remove_all(base);
  fs::create_directories(base / "site" / "sub");
  const auto write = [](const fs::path& p) { std::ofstream(p) << "x"; };
  write(base / "site" / "index.html");
  write(base / "site" / "sub" / "tband.wasm");
  write(base / "secret.txt");
  fs::create_symlink(base / "secret.txt", base / "site" / "link.txt");
  const fs::path root = fs::canonical(base / "site");

  EXPECT_EQ(static_file(root, "/"), root / "index.html");
  EXPECT_EQ(static_file(root, "/index.html"), root / "index.html");
  EXPECT_EQ(static_file(root, "/sub/tband.wasm"), root / "sub" / "tband.wasm");
  EXPECT_EQ(static_file(root, "//sub//tband.wasm"), root / "sub" / "tband.wasm");
  for (const char* bad : {"/../secret.txt", "/sub/../index.html", "/./index.html", "/..", "/link.txt",
                          "/missing.js", "/sub", "index.html", "", "/sub\\..\\index.html"}) {
    EXPECT_EQ(static_file(root, bad), std::nullopt) << bad;
  }
  EXPECT_EQ(static_file(root, std::string_view("/index.html\0x", 13)), std::nullopt);
  EXPECT_EQ(static_content_type("a/index.html"), "text/html; charset=utf-8");
  EXPECT_EQ(static_content_type("tband.wasm"), "application/wasm");
  EXPECT_EQ(static_content_type("tband.js"), "text/javascript; charset=utf-8");
  EXPECT_EQ(static_content_type("style.css"), "text/css; charset=utf-8");
  EXPECT_EQ(static_content_type("schema.json"), "application/json");
  EXPECT_EQ(static_content_type("README"), "application/octet-stream");
  fs::remove_all(base);
}

TEST(TraceServer, MissingFileIsAClearError) {
  ServeOptions options;
  options.path = "/nonexistent/trace.pftrace";
  options.port = 0;
  EXPECT_THROW(TraceServer{options}, std::runtime_error);
}

}  // namespace
}  // namespace tband::test
