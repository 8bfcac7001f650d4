// The trace server answers a real HTTP request on loopback with the file's
// bytes and the CORS header ui.perfetto.dev needs, then stops by itself.
#include <gtest/gtest.h>

#include <thread>

#include <httplib.h>

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

// ui.perfetto.dev fetches from port 9001 only: on any other port the page at
// "/" says so and links the file itself, not a UI link that cannot load it.
TEST(TraceServer, ThePageAtTheRootExplainsAnotherPort) {
  TraceBuilder t;
  t.raw({1, 2, 3});
  ServeOptions options;
  options.path = t.write("page.pftrace");
  options.port = 0;
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
  EXPECT_NE(response->body.find("<a href=\"/page.pftrace\">page.pftrace</a> (3 bytes)"), std::string::npos)
      << response->body;
  EXPECT_NE(response->body.find("only from 127.0.0.1:9001, not from port " + std::to_string(server.port())),
            std::string::npos);
  EXPECT_EQ(response->body.find("#!/?url="), std::string::npos);
  EXPECT_EQ(server.fetches(), 0u) << "the page is no fetch of the trace";
}

TEST(TraceServer, MissingFileIsAClearError) {
  ServeOptions options;
  options.path = "/nonexistent/trace.pftrace";
  options.port = 0;
  EXPECT_THROW(TraceServer{options}, std::runtime_error);
}

}  // namespace
}  // namespace tband::test
