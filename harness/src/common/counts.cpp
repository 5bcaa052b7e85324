#include "common/counts.h"

#include <charconv>

namespace stk::harness {

std::optional<std::uint64_t> parse_count(std::string_view text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos)
    return std::nullopt;
  std::uint64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

std::optional<std::uint64_t> parse_count_field(std::string_view text) {
  constexpr std::string_view blank = " \t\r";
  const auto first = text.find_first_not_of(blank);
  if (first == std::string_view::npos) return std::nullopt;
  const auto last = text.find_last_not_of(blank);
  return parse_count(text.substr(first, last - first + 1));
}

}  // namespace stk::harness
