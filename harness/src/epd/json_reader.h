// A small JSON reader for the harness's own result files (baselines, shard results).
// Objects keep their key order; numbers keep their text so that 64-bit counts stay exact.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace stk::harness::json {

class Value {
 public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::Null; }
  // Typed access; each throws std::runtime_error naming `what` when the kind is wrong.
  bool as_bool(const std::string& what) const;
  std::int64_t as_int(const std::string& what) const;
  double as_double(const std::string& what) const;
  const std::string& as_string(const std::string& what) const;
  const std::vector<Value>& as_array(const std::string& what) const;
  const std::vector<std::pair<std::string, Value>>& as_object(const std::string& what) const;

  // Object member or nullptr.
  const Value* find(const std::string& key) const;
  // Object member; throws naming the key when missing.
  const Value& at(const std::string& key) const;

  static Value parse(const std::string& text);  // throws std::runtime_error with the offset

 private:
  friend class Parser;
  Kind kind_ = Kind::Null;
  bool bool_ = false;
  std::string text_;  // string contents, or the number as written
  std::vector<Value> items_;
  std::vector<std::pair<std::string, Value>> members_;
};

}  // namespace stk::harness::json
