#include "serve/http_server.h"

#include <httplib.h>

#include <algorithm>
#include <cstdio>
#include <new>
#include <optional>
#include <thread>

#include "serve/api.h"
#include "serve/web_assets.h"
#include "store/schema_version.h"

namespace pgnbase::serve {

namespace {

// The page's own files and the API, nothing else: no inline script, no outside source.
constexpr const char* kContentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

constexpr size_t kMaxQueryBytes = 4096;

// The worker's connection, kept between its requests (SQLite's page cache stays warm);
// dropped after a database failure so the next request opens afresh.
struct WorkerConnection {
  const HttpServer* server = nullptr;
  std::optional<store::Database> db;
};
thread_local WorkerConnection worker_connection;

store::Database& connection_for(const HttpServer& server) {
  WorkerConnection& c = worker_connection;
  if (c.server != &server || !c.db) {
    c.db.reset();
    c.db.emplace(store::open_for_reading(server.options().database));
    c.server = &server;
  }
  return *c.db;
}

// One line: what the client reads of a failure (control characters would break it).
std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text + "\n";
}

void answer_text(httplib::Response& response, int status, const std::string& message) {
  response.status = status;
  response.set_content(one_line(message), "text/plain; charset=utf-8");
}

// Runs an API handler on the worker's connection with the request's deadline, and turns
// what it throws into the answer's status.
template <class Handler>
void answer_api(const HttpServer& server, httplib::Response& response, Handler&& handler) {
  try {
    std::string body;
    if constexpr (std::is_invocable_v<Handler>) {
      body = handler();
    } else {
      store::Database& db = connection_for(server);
      db.set_deadline(std::chrono::steady_clock::now() + server.options().time_limit);
      try {
        body = handler(db);
      } catch (...) {
        db.set_deadline(std::nullopt);
        throw;
      }
      db.set_deadline(std::nullopt);
    }
    response.status = 200;
    response.set_header("Cache-Control", "no-store");
    response.set_content(body, "application/json; charset=utf-8");
  } catch (const RequestError& e) {
    answer_text(response, 400, e.message);
  } catch (const NotFound& e) {
    answer_text(response, 404, e.message);
  } catch (const store::StoreError& e) {
    worker_connection.db.reset();
    if (e.store_kind() == store::StoreErrorKind::Interrupted) {
      const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(server.options().time_limit).count();
      answer_text(response, 503,
                  "the request took longer than the server's bound of " + std::to_string(seconds) +
                      " s and was stopped: narrow it with more filters");
    } else {
      answer_text(response, 500, e.what());
    }
  } catch (const Error& e) {
    worker_connection.db.reset();
    answer_text(response, 500, e.what());
  } catch (const std::bad_alloc&) {
    worker_connection.db.reset();
    answer_text(response, 500, "out of memory");
  }
}

// A request's query parameters (httplib decodes them), bounded.
ApiRequest request_of(const httplib::Request& request) { return ApiRequest(request.params); }

}  // namespace

unsigned worker_threads(const ServeOptions& options) {
  if (options.threads) return options.threads;
  return std::clamp(std::thread::hardware_concurrency(), 2u, 8u);
}

HttpServer::HttpServer(ServeOptions options) : options_(std::move(options)), server_(std::make_unique<httplib::Server>()) {
  const unsigned threads = worker_threads(options_);
  server_->new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  server_->set_payload_max_length(0);
  server_->set_read_timeout(std::chrono::seconds(5));
  server_->set_write_timeout(std::chrono::seconds(5));
  server_->set_keep_alive_max_count(100);
  server_->set_tcp_nodelay(true);  // small JSON answers: no 40 ms wait for a delayed ACK (Nagle)
  server_->set_default_headers({{"Content-Security-Policy", kContentSecurityPolicy},
                                {"X-Content-Type-Options", "nosniff"},
                                {"Referrer-Policy", "no-referrer"},
                                {"X-Frame-Options", "DENY"}});
  add_routes();
}

HttpServer::~HttpServer() { stop(); }

int HttpServer::bind() {
  if (options_.port == 0) return server_->bind_to_any_port(options_.host);
  return server_->bind_to_port(options_.host, options_.port) ? options_.port : -1;
}

void HttpServer::run() { server_->listen_after_bind(); }

void HttpServer::stop() {
  if (server_) server_->stop();
}

void HttpServer::add_routes() {
  httplib::Server& s = *server_;
  // Methods other than GET and HEAD, and oversized query strings, end here.
  s.set_pre_routing_handler([](const httplib::Request& request, httplib::Response& response) {
    if (request.method != "GET" && request.method != "HEAD") {
      response.set_header("Allow", "GET, HEAD");
      answer_text(response, 405, request.method + " is not served: only GET and HEAD");
      return httplib::Server::HandlerResponse::Handled;
    }
    const size_t query = request.target.find('?');
    if (query != std::string::npos && request.target.size() - query > kMaxQueryBytes) {
      answer_text(response, 414, "the query string is longer than " + std::to_string(kMaxQueryBytes) + " bytes");
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  s.Get("/api/explorer", [this](const httplib::Request& q, httplib::Response& r) {
    answer_api(*this, r, [&](store::Database& db) { return explorer_json(db, request_of(q)); });
  });
  s.Get("/api/search", [this](const httplib::Request& q, httplib::Response& r) {
    answer_api(*this, r, [&](store::Database& db) { return search_json(db, request_of(q)); });
  });
  s.Get(R"(/api/game/([0-9]{1,18}))", [this](const httplib::Request& q, httplib::Response& r) {
    answer_api(*this, r, [&](store::Database& db) {
      request_of(q).check_names({});
      return game_json(db, std::stoll(q.matches[1]));
    });
  });
  s.Get("/api/player", [this](const httplib::Request& q, httplib::Response& r) {
    answer_api(*this, r, [&](store::Database& db) { return player_json(db, request_of(q)); });
  });
  s.Get("/api/stats", [this](const httplib::Request& q, httplib::Response& r) {
    answer_api(*this, r, [&](store::Database& db) {
      request_of(q).check_names({});
      return stats_json(db);
    });
  });
  s.Get("/api/position", [this](const httplib::Request& q, httplib::Response& r) {
    answer_api(*this, r, [&] { return position_json(request_of(q)); });
  });
  s.Get(R"(/api/.*)", [](const httplib::Request& q, httplib::Response& r) {
    answer_text(r, 404, "no API endpoint " + q.path + " (docs/api.md lists them)");
  });
  s.Get(R"(/.*)", [](const httplib::Request& q, httplib::Response& r) {
    const WebAsset* asset = find_web_asset(q.path);
    if (!asset) {
      answer_text(r, 404, "not found: " + q.path);
      return;
    }
    r.set_content(asset->body.data(), asset->body.size(), std::string(asset->content_type).c_str());
  });
  s.set_exception_handler([](const httplib::Request&, httplib::Response& r, std::exception_ptr e) {
    std::string what = "internal error";
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& x) {
      what = x.what();
    } catch (...) {
    }
    answer_text(r, 500, what);
  });
}

}  // namespace pgnbase::serve
