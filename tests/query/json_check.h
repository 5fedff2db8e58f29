// A strict little JSON reader for tests (RFC 8259: no trailing commas, no control
// characters or invalid UTF-8 in strings, nothing after the value), producing a tree
// the tests can inspect.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pgnbase::json_check {

struct Value {
  enum class Kind { Null, Bool, Number, String, Array, Object } kind = Kind::Null;
  bool boolean = false;
  double number = 0;
  std::string text;                               // String (unescaped, UTF-8)
  std::vector<Value> items;                       // Array
  std::vector<std::pair<std::string, Value>> members;  // Object, in order

  const Value* find(std::string_view key) const {
    for (const auto& [k, v] : members)
      if (k == key) return &v;
    return nullptr;
  }
};

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  // The value, or nullopt with error() set.
  std::optional<Value> parse() {
    Value v;
    skip();
    if (!value(v)) return std::nullopt;
    skip();
    if (pos_ != s_.size()) return fail("text after the value");
    return v;
  }
  const std::string& error() const { return error_; }

 private:
  std::nullopt_t fail(const std::string& why) {
    if (error_.empty()) error_ = why + " at byte " + std::to_string(pos_);
    return std::nullopt;
  }
  void skip() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
  }
  bool literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  bool value(Value& v) {
    if (pos_ >= s_.size()) return (void)fail("unexpected end"), false;
    const char c = s_[pos_];
    if (c == '{') return object(v);
    if (c == '[') return array(v);
    if (c == '"') return v.kind = Value::Kind::String, string(v.text);
    if (literal("null")) return v.kind = Value::Kind::Null, true;
    if (literal("true")) return v.kind = Value::Kind::Bool, v.boolean = true, true;
    if (literal("false")) return v.kind = Value::Kind::Bool, v.boolean = false, true;
    return number(v);
  }
  bool number(Value& v) {
    const size_t start = pos_;
    if (pos_ < s_.size() && s_[pos_] == '-') ++pos_;
    auto digits = [&] {
      size_t n = 0;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_, ++n;
      return n;
    };
    const size_t int_start = pos_;
    const size_t n = digits();
    if (n == 0 || (n > 1 && s_[int_start] == '0')) return (void)fail("bad number"), false;
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      if (!digits()) return (void)fail("bad fraction"), false;
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      if (!digits()) return (void)fail("bad exponent"), false;
    }
    v.kind = Value::Kind::Number;
    v.number = std::stod(std::string(s_.substr(start, pos_ - start)));
    return true;
  }
  static void put_utf8(uint32_t cp, std::string& out) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 63));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 63));
      out += char(0x80 | (cp & 63));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 63));
      out += char(0x80 | ((cp >> 6) & 63));
      out += char(0x80 | (cp & 63));
    }
  }
  bool hex4(uint32_t& out) {
    if (pos_ + 4 > s_.size()) return false;
    out = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = s_[pos_++];
      out <<= 4;
      if (c >= '0' && c <= '9') out |= uint32_t(c - '0');
      else if (c >= 'a' && c <= 'f') out |= uint32_t(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') out |= uint32_t(c - 'A' + 10);
      else return false;
    }
    return true;
  }
  bool string(std::string& out) {
    ++pos_;  // opening quote
    while (pos_ < s_.size()) {
      const uint8_t c = uint8_t(s_[pos_]);
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (c < 0x20) return (void)fail("control character in string"), false;
      if (c == '\\') {
        if (++pos_ >= s_.size()) break;
        const char e = s_[pos_++];
        switch (e) {
          case '"': out += '"'; break;
          case '\\': out += '\\'; break;
          case '/': out += '/'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'n': out += '\n'; break;
          case 'r': out += '\r'; break;
          case 't': out += '\t'; break;
          case 'u': {
            uint32_t cp;
            if (!hex4(cp)) return (void)fail("bad \\u escape"), false;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
              uint32_t low;
              if (!literal("\\u") || !hex4(low) || low < 0xDC00 || low > 0xDFFF)
                return (void)fail("lone surrogate"), false;
              cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
              return (void)fail("lone surrogate"), false;
            }
            put_utf8(cp, out);
            break;
          }
          default: return (void)fail("bad escape"), false;
        }
        continue;
      }
      if (c < 0x80) {
        out += char(c);
        ++pos_;
        continue;
      }
      // Validate one UTF-8 sequence.
      size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c <= 0xDF ? 2 : 0;
      if (n == 0 || pos_ + n > s_.size()) return (void)fail("invalid UTF-8"), false;
      for (size_t k = 1; k < n; ++k)
        if ((uint8_t(s_[pos_ + k]) & 0xC0) != 0x80) return (void)fail("invalid UTF-8"), false;
      const uint8_t c1 = uint8_t(s_[pos_ + 1]);
      if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 > 0x9F) || (c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 > 0x8F))
        return (void)fail("invalid UTF-8"), false;
      out.append(s_.substr(pos_, n));
      pos_ += n;
    }
    return (void)fail("unterminated string"), false;
  }
  bool array(Value& v) {
    v.kind = Value::Kind::Array;
    ++pos_;
    skip();
    if (pos_ < s_.size() && s_[pos_] == ']') return ++pos_, true;
    while (true) {
      Value item;
      skip();
      if (!value(item)) return false;
      v.items.push_back(std::move(item));
      skip();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == ']') return ++pos_, true;
      return (void)fail("expected , or ]"), false;
    }
  }
  bool object(Value& v) {
    v.kind = Value::Kind::Object;
    ++pos_;
    skip();
    if (pos_ < s_.size() && s_[pos_] == '}') return ++pos_, true;
    while (true) {
      skip();
      if (pos_ >= s_.size() || s_[pos_] != '"') return (void)fail("expected a key"), false;
      std::string key;
      if (!string(key)) return false;
      skip();
      if (pos_ >= s_.size() || s_[pos_] != ':') return (void)fail("expected :"), false;
      ++pos_;
      skip();
      Value member;
      if (!value(member)) return false;
      v.members.emplace_back(std::move(key), std::move(member));
      skip();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == '}') return ++pos_, true;
      return (void)fail("expected , or }"), false;
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
  std::string error_;
};

inline std::optional<Value> parse(std::string_view text, std::string* error = nullptr) {
  Parser p(text);
  auto v = p.parse();
  if (!v && error) *error = p.error();
  return v;
}

}  // namespace pgnbase::json_check
