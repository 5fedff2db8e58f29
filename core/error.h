// pgnbase::Error: the one base of the exceptions pgnbase throws, with a kind saying
// which part failed (leveldb's Status codes). what() is one line naming what failed
// (the file, the database, the folder), ready for main to print.
//
// Exceptions stay for what a caller cannot go on from: a database, a file or a thread
// that fails. Bad user text is not one of them: its parsers return Parsed<T>
// (core/parsed.h).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace pgnbase {

enum class ErrorKind : uint8_t {
  Store,          // SQLite failed (store::StoreError)
  Schema,         // a database this build must not read or write (store::SchemaError)
  PositionIndex,  // a corrupt position index block or a failed temporary file (store::PositionIndexError)
  Input,          // an input file cannot be read or decoded (indexer::InputError)
  Output,         // an output cannot be created, written or put in place (io::OutputError)
  Dataset,        // a dataset file or folder (dataset::DatasetError)
  ThreadStart,    // the system refused a thread (ThreadStartError)
};

// A short lowercase name of the kind ("store", "position index", ...).
constexpr const char* describe(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Store: return "store";
    case ErrorKind::Schema: return "schema";
    case ErrorKind::PositionIndex: return "position index";
    case ErrorKind::Input: return "input";
    case ErrorKind::Output: return "output";
    case ErrorKind::Dataset: return "dataset";
    case ErrorKind::ThreadStart: return "thread start";
  }
  return "unknown";
}

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

}  // namespace pgnbase
