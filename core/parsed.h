// Parsed<T>: what a parser of user text returns, the value or one line saying why the
// text is not one (simdjson's simdjson_result<T>; std::expected<T, std::string> once
// every compiler we build with has it). A parser fails with `return ParseError{"..."};`.
//
//   Parsed<EcoRange> eco = parse_eco_range(text);
//   if (!eco) throw UsageError{eco.error()};
//   use(*eco);
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace pgnbase {

// Why a text does not parse: one line, for the user, with no trailing period.
struct ParseError {
  std::string message;
};

template <class T>
class [[nodiscard]] Parsed {
 public:
  Parsed(T value) : result_(std::in_place_index<0>, std::move(value)) {}
  Parsed(ParseError error) : result_(std::in_place_index<1>, std::move(error.message)) {}

  bool ok() const { return result_.index() == 0; }
  explicit operator bool() const { return ok(); }

  // The value; only when ok() (std::bad_variant_access otherwise).
  T& value() & { return std::get<0>(result_); }
  const T& value() const& { return std::get<0>(result_); }
  T&& value() && { return std::get<0>(std::move(result_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  // The message; only when !ok().
  const std::string& error() const { return std::get<1>(result_); }

 private:
  std::variant<T, std::string> result_;
};

}  // namespace pgnbase
