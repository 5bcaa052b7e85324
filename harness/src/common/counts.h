#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace stk::harness {

// A count written as decimal digits only, the whole text: no sign, no space, no '+', no
// overflow. std::stoull would read "-20" as 2^64 - 20 and " 7x" as 7.
std::optional<std::uint64_t> parse_count(std::string_view text);

// The same after dropping spaces, tabs and CR around it: a count field of an engine's line.
std::optional<std::uint64_t> parse_count_field(std::string_view text);

}  // namespace stk::harness
