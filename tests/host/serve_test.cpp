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

TEST(TraceServer, MissingFileIsAClearError) {
  ServeOptions options;
  options.path = "/nonexistent/trace.pftrace";
  options.port = 0;
  EXPECT_THROW(TraceServer{options}, std::runtime_error);
}

}  // namespace
}  // namespace tband::test
