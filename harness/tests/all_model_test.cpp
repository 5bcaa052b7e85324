// Independent model of the tiers' step lists (docs/tiers.md, "The tiers"): the figures the page
// promises per tier (depths, position counts, gates, baselines) as a table written from the text,
// plus the structure every step list keeps (unique names and reports under --out-dir, commands a
// shell reads back) and a metamorphic relation (another --out-dir changes only the words naming it).
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <set>
#include <string>
#include <vector>

#include "commands/all/tier_steps.h"
#include "proc/command_words.h"

// One namespace per file: the tests build in unity batches, where a using-directive or helper
// name of one file would otherwise reach the next.
namespace all_model_test {

using namespace stk::harness;

namespace {

struct Promise {
  std::string step, option,
      value;  // value "" = the step exists; option "" = a word containing value
};

// docs/tiers.md, "The tiers", quick and full.
const std::vector<Promise> kQuick = {
    {"perft-golden", "--depth", "5"},
    {"perft-rare", "--epd", "golden/perft-rare.epd"},
    {"features", "--random", "10000"},
    {"features", "", "ECM.epd"},
    {"checknet-golden", "--manifest", "golden/nets/manifest.json"},
    {"eval-parity", "--random", "2000"},
    {"drift", "--random", "2000"},
    {"netlint", "--random", "500"},
    {"checknet-trained", "--manifest", "golden/nets/trained/manifest.json"},
    {"drift-trained", "--max-p99-cp", "30"},
    {"drift-trained", "--max-max-cp", "50"},
    {"accumulator-trained", "", ""},
    {"accumulator", "", ""},
    {"bench", "", ""},
    {"epd-ecm", "--stride", "20"},
    {"epd-ecm", "--depth", "16"},
    {"epd-ecm", "--baseline", "golden/epd/ecm-quick.json"},
    {"epd-am", "--epd", "golden/epd/am-quick.epd"},
    {"epd-am", "--depth", "8"},
    {"calibration", "--games", "40"},
    {"calibration", "--depth", "8"},
    {"uci-check", "", ""},
};
const std::vector<Promise> kFull = {
    {"perft-golden", "--depth", "6"},
    {"perft-suite", "--depth", "6"},
    {"perft-suite", "", "perftsuite.epd"},
    {"perft-rare", "--epd", "golden/perft-rare.epd"},
    {"epd-am", "--epd", "golden/epd/am-quick.epd"},
    {"epd-am", "--depth", "8"},
    {"uci-check", "", ""},
    {"features", "--random", "100000"},
    {"eval-parity-trained", "--random", "20000"},
    {"drift-trained", "--random", "20000"},
    {"accumulator-trained", "--games", "400"},
    {"accumulator-trained", "--search-depth", "11"},
    {"accumulator", "", ""},
    {"accumulator-h1024", "--hidden", "1024"},
    {"epd-ecm", "--nodes", "1000000"},
    {"epd-ecm", "--baseline", "golden/epd/ecm-full.json"},
    {"calibration", "--depth", "10"},
    {"fh-compare", "--depth", "10"},
    {"pytest-fault-matrix", "", ""},
};

bool keeps(const Step& step, const Promise& p) {
  for (const auto& argv : step.commands)
    for (std::size_t i = 0; i < argv.size(); ++i) {
      if (p.option.empty()) {
        if (argv[i].find(p.value) != std::string::npos) return true;
      } else if ((argv[i] == p.option && i + 1 < argv.size() && argv[i + 1] == p.value) ||
                 argv[i] == p.option + "=" + p.value) {
        return true;
      }
    }
  return false;
}

std::vector<Step> steps_of(const std::string& tier, const std::string& out,
                           const std::string& self) {
  StepContext ctx;
  ctx.tier = tier;
  ctx.out_dir = out;
  ctx.self = self;
  ctx.shared = "../shared";
  return tier_steps(ctx);
}

}  // namespace

// MODEL all-tier-steps
// checks: harness/src/commands/all/tier_steps.cpp  (each tier's steps and their arguments)
// contract: docs/tiers.md#the-tiers
// planted: ci/mutants/model-all-tier-steps.patch  (the quick ECM step at every 10th position)
TEST_CASE("each tier's steps keep what docs/tiers.md promises and read back as commands",
          "[model][all]") {
  for (const auto& [tier, promises] :
       std::vector<std::pair<std::string, std::vector<Promise>>>{{"quick", kQuick},
                                                                 {"full", kFull}}) {
    const auto steps = steps_of(tier, "reports", "stk-harness");
    for (const auto& p : promises) {
      INFO(tier << ": " << p.step << " " << p.option << " " << p.value);
      const auto it = std::find_if(steps.begin(), steps.end(),
                                   [&](const Step& s) { return s.name == p.step; });
      REQUIRE(it != steps.end());
      if (!p.value.empty()) CHECK(keeps(*it, p));
    }
  }
  rc::prop("any --out-dir and binary path: structure, read-back, and only the out-dir words change",
           [] {
             const auto tier = *rc::gen::elementOf(std::vector<std::string>{"quick", "full"});
             const auto name = *rc::gen::elementOf(
                 std::vector<std::string>{"r", "my reports", "o'dir", "-x", "a$b"});
             const std::string out = "/tmp/OUTDIR-" + name;
             const std::string self = *rc::gen::elementOf(
                 std::vector<std::string>{"stk-harness", "/opt/my tools/stk-harness"});
             const auto steps = steps_of(tier, out, self);
             std::set<std::string> names, reports;
             for (const auto& s : steps) {
               RC_ASSERT(names.insert(s.name).second);
               RC_ASSERT(!s.commands.empty());
               for (const auto& r : s.reports) {
                 RC_ASSERT(reports.insert(r).second);
                 RC_ASSERT(r.rfind(out + "/junit/", 0) == 0);
               }
               // The listing reads back as the commands, split at the " && " words.
               std::vector<std::vector<std::string>> back(1);
               for (const auto& w : proc::split_words(s.command_line())) {
                 if (w == "&&") back.emplace_back();
                 else back.back().push_back(w);
               }
               RC_ASSERT(back == s.commands);
             }
             // Metamorphic: the same list for another out-dir, word for word with the out-dir replaced.
             const std::string other = "/srv/elsewhere";
             const auto moved = steps_of(tier, other, self);
             RC_ASSERT(moved.size() == steps.size());
             for (std::size_t i = 0; i < steps.size(); ++i) {
               RC_ASSERT(moved[i].name == steps[i].name);
               RC_ASSERT(moved[i].commands.size() == steps[i].commands.size());
               for (std::size_t c = 0; c < steps[i].commands.size(); ++c) {
                 auto replaced = steps[i].commands[c];
                 for (auto& w : replaced)
                   for (std::size_t at; (at = w.find(out)) != std::string::npos;)
                     w.replace(at, out.size(), other);
                 RC_ASSERT(replaced == moved[i].commands[c]);
               }
             }
           });
}

}  // namespace all_model_test
