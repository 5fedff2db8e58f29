// A JSON object written field by field: the braces, commas and key quoting in one
// place, so report code states only names and values. Strings go through
// append_json_string (query/json_writer.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "query/json_writer.h"

namespace pgnbase::query {

class JsonObject {
 public:
  // Appends '{' now and '}' when destroyed; out must outlive the object.
  explicit JsonObject(std::string& out) : out_(out) { out_ += '{'; }
  ~JsonObject() { out_ += '}'; }
  JsonObject(const JsonObject&) = delete;
  JsonObject& operator=(const JsonObject&) = delete;

  JsonObject& text(std::string_view name, std::string_view value) {
    append_json_string(value, key(name));
    return *this;
  }
  JsonObject& number(std::string_view name, std::optional<int64_t> value) {
    key(name) += value ? std::to_string(*value) : "null";
    return *this;
  }
  // The output after "name": for a value the caller writes (an array, a nested object).
  std::string& key(std::string_view name) {
    if (!first_) out_ += ',';
    first_ = false;
    append_json_string(name, out_);
    out_ += ':';
    return out_;
  }

 private:
  std::string& out_;
  bool first_ = true;
};

}  // namespace pgnbase::query
