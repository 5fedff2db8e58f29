// A real `pgn-query serve` server for the tests: the HttpServer on a free loopback port,
// answering on its own thread, over a database imported from the bundled sample (or
// from PGN text the test writes), and a client for it.
#pragma once

#include <gtest/gtest.h>
#include <httplib.h>

#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "indexer/import_pipeline.h"
#include "serve/http_server.h"
#include "tests/query/json_check.h"
#include "tests/support/bundled_sample.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::serve_test {

// Imports files (appending) into the database at db_path with the real pipeline.
inline void import_into(const std::string& db_path, const std::vector<std::string>& files) {
  indexer::DatabaseWriter writer(db_path, indexer::WriterOptions{});
  indexer::ImportOptions options;
  options.threads = 2;
  options.build.keep_annotations = true;
  for (const std::string& file : files) indexer::import_file(file, writer, options);
}

// The server on its own thread from construction until destruction.
class RunningServer {
 public:
  explicit RunningServer(serve::ServeOptions options) : server_(std::move(options)) {
    port_ = server_.bind();
    if (port_ <= 0) throw std::runtime_error("cannot bind a loopback port");
    thread_ = std::thread([this] { server_.run(); });
  }
  ~RunningServer() {
    server_.stop();
    thread_.join();
  }
  int port() const { return port_; }
  // A new client (httplib clients are not shared between threads).
  std::unique_ptr<httplib::Client> client() const {
    auto c = std::make_unique<httplib::Client>("127.0.0.1", port_);
    c->set_read_timeout(std::chrono::seconds(30));
    return c;
  }

 private:
  serve::HttpServer server_;
  int port_ = 0;
  std::thread thread_;
};

inline serve::ServeOptions options_for(const std::string& db_path) {
  serve::ServeOptions options;
  options.database = db_path;
  options.port = 0;
  options.threads = 4;
  return options;
}

// The body parsed as JSON; a failed test (and Null) when it is not.
inline json_check::Value parse_json(const std::string& body) {
  std::string error;
  std::optional<json_check::Value> value = json_check::parse(body, &error);
  EXPECT_TRUE(value.has_value()) << error << " in " << body.substr(0, 200);
  return value ? *value : json_check::Value{};
}

// A fixture with one server for the whole suite, over the bundled sample.
class SampleServerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<test::TempDir>("serve-sample");
    db_path_ = (dir_->path() / "sample.db").string();
    import_into(db_path_, {test::kSample.string()});
    server_ = std::make_unique<RunningServer>(options_for(db_path_));
  }
  static void TearDownTestSuite() {
    server_.reset();
    dir_.reset();
  }
  static inline std::unique_ptr<test::TempDir> dir_;
  static inline std::string db_path_;
  static inline std::unique_ptr<RunningServer> server_;
};

}  // namespace pgnbase::serve_test
