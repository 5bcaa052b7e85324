// The engine's UCI options: the "option name ..." lines of "uci", and "setoption".
#pragma once

#include <istream>
#include <string>

#include "search/search.h"

namespace stk::uci {

// The lines "option name ... type ..." that answer "uci" (newline separated, no trailing one).
std::string option_lines();

// Reads "name <N...> [value <V...>]" after "setoption" and applies it. Transactional: a refused
// value (a bad net or model file, a hash table that cannot be allocated) changes nothing.
// Returns the text to report ("info string ..."), or "" when there is nothing to say.
std::string set_option(std::istream& args, search::Searcher& searcher);

}  // namespace stk::uci
