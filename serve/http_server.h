// `pgn-query serve`: the HTTP server (cpp-httplib) over one database, answering the
// compiled-in page (serve/web_assets.h) and the JSON API (serve/api.h, docs/api.md).
//
// Each worker thread keeps its own read-only connection (store::open_for_reading) and
// reads each request inside a read snapshot of its own, so an import that commits
// meanwhile is seen by the next request. Only GET and HEAD are answered; every answer
// carries a Content-Security-Policy that allows the server's own files only and no
// inline script. A request's database work is bounded by time_limit (its statements
// are interrupted past it: 503); a failing database answers 500 with one line for that
// request and the server goes on.
#pragma once

#include <chrono>
#include <memory>
#include <string>

namespace httplib {
class Server;
}

namespace pgnbase::serve {

struct ServeOptions {
  std::string database;
  std::string host = "127.0.0.1";
  int port = 8080;   // 0: any free port (bind() says which)
  unsigned threads = 0;  // worker threads; 0: one per core, at least 2, at most 8
  std::chrono::milliseconds time_limit{10000};  // database work of one request
};

class HttpServer {
 public:
  explicit HttpServer(ServeOptions options);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds the address; returns the port, or -1 when it cannot (in use, not an address).
  int bind();
  // Answers requests until stop() (from another thread). Call after bind().
  void run();
  // Makes run() return; safe from any thread.
  void stop();

  const ServeOptions& options() const { return options_; }

 private:
  void add_routes();

  ServeOptions options_;
  std::unique_ptr<httplib::Server> server_;
};

// The worker threads options.threads asks for.
unsigned worker_threads(const ServeOptions& options);

}  // namespace pgnbase::serve
