// Paths that are not net or model files (a directory above all) are clear errors everywhere a
// net is loaded: UCI EvalFile / FHModel (the previous net and model stay), stk eval, checknet.
#include <catch2/catch.hpp>

#include <sstream>

#include "nets/synthetic_net.h"
#include "cli_support.h"
#include "nnue/embedded_net.h"
#include "nnue/network.h"
#include "position.h"
#include "search/search.h"
#include "uci.h"
#include "uci/options.h"

using namespace stk;
using Catch::Matchers::Contains;

namespace {

std::string run_uci_script_in_process(const std::string& script) {
  std::istringstream in(script);
  std::ostringstream out;
  stk::uci_loop(in, out);
  return out.str();
}

}  // namespace

TEST_CASE("uci: a directory as a net or model is an error, the previous net stays", "[uci][nnue]") {
  const auto dir = test::scratch_dir("uci-net-dir");
  const std::string net = harness::synthetic_net_file(128);
  std::string out;
  REQUIRE_NOTHROW(out = run_uci_script_in_process("setoption name EvalFile value " + net + "\n" +
                                                  "setoption name EvalFile value " + dir.string() +
                                                  "\n" + "setoption name FHModel value " +
                                                  dir.string() + "\n" + "isready\n"));
  CHECK_THAT(out, Contains("info string NNUE network loaded: " + net));
  CHECK_THAT(out, Contains("info string error: EvalFile not loaded: " + dir.string() +
                           ": is a directory"));
  CHECK_THAT(out, Contains("info string error: FHModel not loaded: " + dir.string() +
                           ": is a directory"));
  CHECK_THAT(out, Contains("readyok"));
  // The same options on an engine object of our own: the net it owns is still the first one.
  search::Searcher engine(search::Options{1, true, nullptr});
  for (const std::string& path : {net, dir.string()}) {
    std::istringstream args("name EvalFile value " + path);
    uci::set_option(args, engine);
  }
  REQUIRE(engine.network());
  CHECK(engine.network()->source() == net);
  CHECK(engine.nnue_active());

  auto eval = test::run_command("'" + test::engine_bin() + "' eval --net '" + dir.string() + "' '" +
                                Position::kStartFen + "'");
  CHECK(eval.exit_code == 2);
  CHECK_THAT(eval.output, Contains(dir.string() + ": is a directory"));
  auto check = test::run_command("'" + test::harness_bin() + "' checknet '" + dir.string() + "'");
  CHECK(check.exit_code == 2);
  CHECK_THAT(check.output, Contains(dir.string() + ": is a directory"));
}

TEST_CASE("uci: Use NNUE switches the loaded net off and on, other values are refused",
          "[uci][nnue]") {
  // Planted: "true" tested with != (the option inverted) passed, since no test read it back.
  search::Searcher engine(search::Options{1, true, nullptr});
  auto set = [&](const std::string& name, const std::string& value) {
    std::istringstream args("name " + name + " value " + value);
    return uci::set_option(args, engine);
  };
  set("EvalFile", harness::synthetic_net_file(128));
  REQUIRE(engine.nnue_active());
  CHECK(set("Use NNUE", "false").empty());
  CHECK_FALSE(engine.nnue_active());
  CHECK(set("Use NNUE", "true").empty());
  CHECK(engine.nnue_active());
  CHECK_THAT(set("Use NNUE", "yes"), Contains("Use NNUE must be true or false"));
  CHECK(engine.nnue_active());  // a refused value changes nothing
}

TEST_CASE("uci: a build without a built-in net starts classical and refuses <embedded>",
          "[uci][nnue]") {
  // The -nnue build's own checks are ci/nnue-build.sh (its preset builds the engine alone).
  REQUIRE_FALSE(nnue::has_embedded_network());
  REQUIRE(nnue::embedded_network() == nullptr);
  CHECK_THAT(uci::option_lines(), Contains("option name EvalFile type string default <empty>"));
  const std::string out = run_uci_script_in_process("setoption name EvalFile value <embedded>\n");
  CHECK_THAT(out, Contains("info string error: EvalFile: this build has no built-in net"));
}
