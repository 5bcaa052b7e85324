#include "uci/options.h"

#include <charconv>

#include "nnue/embedded_net.h"
#include "nnue/network.h"

namespace stk::uci {

namespace {

constexpr int kHashMaxMb = 65536;

std::string error(const std::string& why) { return "info string error: " + why; }

}  // namespace

std::string option_lines() {
  const search::fh::Settings fh;
  return "option name Hash type spin default 16 min 1 max " + std::to_string(kHashMaxMb) + "\n" +
         "option name Threads type spin default 1 min 1 max 1\n"
         "option name Ponder type check default false\n"
         "option name Clear Hash type button\n"
         "option name Use NNUE type check default true\n"
         "option name EvalFile type string default " +
         std::string(nnue::has_embedded_network() ? nnue::kEmbeddedNetName : "<empty>") + "\n" +
         "option name FHPredictor type check default " +
         std::string(fh.enabled ? "true" : "false") + "\n" +
         "option name FHModel type string default <builtin>\n"
         "option name FHLmrTier1 type spin default " +
         std::to_string(fh.lmr_tier1) + " min 0 max 10000\n" +
         "option name FHLmrTier2 type spin default " + std::to_string(fh.lmr_tier2) +
         " min 0 max 10000\n" + "option name FHStaticNull type spin default " +
         std::to_string(fh.static_null) + " min 0 max 10000";
}

std::string set_option(std::istream& args, search::Searcher& searcher) {
  std::string token, name, value;
  args >> token;  // "name"
  while (args >> token && token != "value") name += (name.empty() ? "" : " ") + token;
  while (args >> token) value += (value.empty() ? "" : " ") + token;

  if (name == "Hash") {
    int mb = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), mb);
    if (ec != std::errc() || end != value.data() + value.size() || mb < 1 || mb > kHashMaxMb)
      return error("Hash must be 1.." + std::to_string(kHashMaxMb) + " MB, got '" + value + "'");
    if (!searcher.resize_hash(std::size_t(mb)))
      return error("Hash " + value + " MB could not be allocated (out of memory); keeping the " +
                   std::to_string(searcher.hash_mb()) + " MB table");
    return "";
  }
  if (name == "Threads") return value == "1" ? "" : error("only Threads 1 is supported");
  // The GUI's word that it may send "go ponder": nothing to change (the time budget is the same).
  if (name == "Ponder")
    return value == "true" || value == "false" ? "" : error("Ponder must be true or false");
  if (name == "Clear Hash") return searcher.clear(), "";
  if (name == "Use NNUE") {
    if (value != "true" && value != "false") return error("Use NNUE must be true or false");
    searcher.set_use_nnue(value == "true");
    return "";
  }
  if (search::Searcher::is_fh_option(name)) {
    if (std::string why = searcher.set_fh_option(name, value); !why.empty()) return error(why);
    return name == "FHModel" ? "info string fail-high model: " +
                                   (value.empty() ? std::string("<builtin>") : value)
                             : "";
  }
  if (name == "EvalFile") {  // a bad file leaves the previous network active and intact
    if (value.empty() || value == "<empty>") {
      searcher.set_network(nullptr);
      return "info string NNUE network unloaded: classical evaluation";
    }
    if (value == nnue::kEmbeddedNetName) {
      if (!nnue::has_embedded_network()) return error("EvalFile: this build has no built-in net");
      searcher.set_network(nnue::embedded_network());
      return "info string NNUE network loaded: the built-in net";
    }
    std::string why;
    if (!searcher.load_network(value, false, &why)) return error("EvalFile not loaded: " + why);
    return "info string NNUE network loaded: " + value;
  }
  return error("unknown option '" + name + "'");
}

}  // namespace stk::uci
