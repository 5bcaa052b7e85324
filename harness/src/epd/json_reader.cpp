#include "epd/json_reader.h"

#include <cctype>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

namespace stk::harness::json {

namespace {
const char* kind_name(Value::Kind k) {
  switch (k) {
    case Value::Kind::Null: return "null";
    case Value::Kind::Bool: return "a boolean";
    case Value::Kind::Number: return "a number";
    case Value::Kind::String: return "a string";
    case Value::Kind::Array: return "an array";
    case Value::Kind::Object: return "an object";
  }
  return "?";
}

[[noreturn]] void wrong_kind(const std::string& what, const char* want, Value::Kind got) {
  throw std::runtime_error(what + ": expected " + want + ", found " + kind_name(got));
}
}  // namespace

class Parser {
 public:
  explicit Parser(const std::string& s) : s_(s) {}

  Value document() {
    Value v = value(0);
    skip_ws();
    if (pos_ != s_.size()) fail("trailing characters after the JSON value");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error("JSON error at byte " + std::to_string(pos_) + ": " + why);
  }
  void skip_ws() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skip_ws();
    if (pos_ < s_.size() && s_[pos_] == c) return ++pos_, true;
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("expected '") + c + "'");
  }

  Value value(int nesting) {
    if (nesting > 64) fail("nested too deeply");
    skip_ws();
    if (pos_ >= s_.size()) fail("unexpected end of input");
    Value v;
    char c = s_[pos_];
    if (c == '{') {
      ++pos_;
      v.kind_ = Value::Kind::Object;
      if (eat('}')) return v;
      do {
        skip_ws();
        std::string key = string();
        expect(':');
        v.members_.emplace_back(std::move(key), value(nesting + 1));
      } while (eat(','));
      expect('}');
    } else if (c == '[') {
      ++pos_;
      v.kind_ = Value::Kind::Array;
      if (eat(']')) return v;
      do v.items_.push_back(value(nesting + 1));
      while (eat(','));
      expect(']');
    } else if (c == '"') {
      v.kind_ = Value::Kind::String;
      v.text_ = string();
    } else if (s_.compare(pos_, 4, "true") == 0) {
      pos_ += 4, v.kind_ = Value::Kind::Bool, v.bool_ = true;
    } else if (s_.compare(pos_, 5, "false") == 0) {
      pos_ += 5, v.kind_ = Value::Kind::Bool;
    } else if (s_.compare(pos_, 4, "null") == 0) {
      pos_ += 4;
    } else if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t start = pos_;
      while (pos_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[pos_])) ||
                                  std::string_view("+-.eE").find(s_[pos_]) != std::string_view::npos))
        ++pos_;
      v.kind_ = Value::Kind::Number;
      v.text_ = s_.substr(start, pos_ - start);
      char* end = nullptr;
      std::strtod(v.text_.c_str(), &end);
      if (*end) fail("malformed number '" + v.text_ + "'");
    } else {
      fail(std::string("unexpected character '") + c + "'");
    }
    return v;
  }

  std::string string() {
    if (pos_ >= s_.size() || s_[pos_] != '"') fail("expected a string");
    ++pos_;
    std::string out;
    while (true) {
      if (pos_ >= s_.size()) fail("unterminated string");
      char c = s_[pos_++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) fail("unterminated escape");
      char e = s_[pos_++];
      switch (e) {
        case '"': case '\\': case '/': out += e; break;
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u': {
          if (pos_ + 4 > s_.size()) fail("short \\u escape");
          unsigned cp = unsigned(std::strtoul(s_.substr(pos_, 4).c_str(), nullptr, 16));
          pos_ += 4;
          // The harness writes \u only for control characters; encode the BMP as UTF-8.
          if (cp < 0x80) {
            out += char(cp);
          } else if (cp < 0x800) {
            out += char(0xC0 | (cp >> 6)), out += char(0x80 | (cp & 0x3F));
          } else {
            out += char(0xE0 | (cp >> 12)), out += char(0x80 | ((cp >> 6) & 0x3F)),
                out += char(0x80 | (cp & 0x3F));
          }
          break;
        }
        default: fail(std::string("bad escape '\\") + e + "'");
      }
    }
  }

  const std::string& s_;
  std::size_t pos_ = 0;
};

Value Value::parse(const std::string& text) { return Parser(text).document(); }

bool Value::as_bool(const std::string& what) const {
  if (kind_ != Kind::Bool) wrong_kind(what, "a boolean", kind_);
  return bool_;
}

std::int64_t Value::as_int(const std::string& what) const {
  if (kind_ != Kind::Number) wrong_kind(what, "an integer", kind_);
  char* end = nullptr;
  long long x = std::strtoll(text_.c_str(), &end, 10);
  if (*end) throw std::runtime_error(what + ": expected an integer, found " + text_);
  return x;
}

double Value::as_double(const std::string& what) const {
  if (kind_ != Kind::Number) wrong_kind(what, "a number", kind_);
  return std::strtod(text_.c_str(), nullptr);
}

const std::string& Value::as_string(const std::string& what) const {
  if (kind_ != Kind::String) wrong_kind(what, "a string", kind_);
  return text_;
}

const std::vector<Value>& Value::as_array(const std::string& what) const {
  if (kind_ != Kind::Array) wrong_kind(what, "an array", kind_);
  return items_;
}

const std::vector<std::pair<std::string, Value>>& Value::as_object(const std::string& what) const {
  if (kind_ != Kind::Object) wrong_kind(what, "an object", kind_);
  return members_;
}

const Value* Value::find(const std::string& key) const {
  for (const auto& [k, v] : members_)
    if (k == key) return &v;
  return nullptr;
}

const Value& Value::at(const std::string& key) const {
  if (kind_ != Kind::Object) wrong_kind(key, "an object", kind_);
  if (const Value* v = find(key)) return *v;
  throw std::runtime_error("missing key \"" + key + "\"");
}

}  // namespace stk::harness::json
