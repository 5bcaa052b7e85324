// stk-harness <name> [options]: the validation harnesses, each writing JUnit XML.
#include <algorithm>
#include <cstring>
#include <iostream>
#include <string_view>

#include "cli/cli.h"
#include "commands.h"
#include "io/interruption.h"
#include "position.h"

namespace {

struct Command {
  const char* name;
  int (*run)(int, char**);
  const char* summary;
};

constexpr Command kCommands[] = {
    {"perft", stk::harness::run_perft, "move-generation counts against golden perft EPDs"},
    {"checknet", stk::harness::run_checknet,
     "validate a .nnue net file: header, exact size, checksum"},
    {"makenet", stk::harness::run_makenet,
     "write a deterministic synthetic .nnue net (--hidden 128|1024 --seed S)"},
    {"accumulator", stk::harness::run_accumulator,
     "incremental NNUE accumulator vs recompute, scalar vs AVX2, mirror symmetry"},
    {"nnue-bench", stk::harness::run_nnue_bench,
     "NNUE evaluations/s: full refresh vs incremental, H=128 and H=1024"},
    {"bench", stk::harness::run_bench_harness,
     "search node-count signature against golden/bench.txt"},
    {"search-speed", stk::harness::run_search_speed,
     "search nodes/s against stockfish's, side by side"},
    {"perft-speed", stk::harness::run_perft_speed,
     "perft time as a ratio of stockfish's, side by side"},
    {"epd", stk::harness::run_epd,
     "tactical EPD suite (bm/am) at fixed depth or nodes against a golden baseline"},
    {"merge", stk::harness::run_merge,
     "combine shard results into one report: 'epd --shard K/N' JSON or match result files"},
    {"epd-compare", stk::harness::run_epd_compare,
     "in-process engine vs a UCI reference on one EPD suite, side by side"},
    {"shadow", stk::harness::run_shadow,
     "shadow-search silent-miss audit: pruned/reduced moves re-searched, miss rates by depth"},
    {"datagen", stk::harness::run_datagen,
     "self-play training data: FEN | score | result | ply | quiet, resumable, sharded"},
    {"fhgen", stk::harness::run_fhgen,
     "fail-high predictor position sets: seeded self-play + ECM, split by position"},
    {"fhcollect", stk::harness::run_fhcollect,
     "fail-high predictor collection: gate-1 records (.fhr) at fixed depth"},
    {"fhdump", stk::harness::run_fhdump, "print a .fhr record file as JSON lines (the C++ reader)"},
    {"ctest-junit", stk::harness::run_ctest_junit,
     "rewrite CTest's --output-junit report in the project's JUnit form"},
    {"uci-check", stk::harness::run_uci_check,
     "UCI conformance of any engine (--engine CMD): commands during a search, limits, clocks, PVs, notation, games, garbage"},
    {"sprt", stk::harness::run_sprt,
     "match statistics from counts: Elo, nElo, LOS, pentanomial GSPRT (recheck a report)"},
    {"sprt-sim", stk::harness::run_sprt_sim,
     "simulate the SPRT at elo0 and elo1: measured error rates and sample sizes"},
    {"match-merge", stk::harness::run_match_merge,
     "add match result files (shards) exactly, recompute the SPRT, apply the gate"},
    {"homogeneity-sim", stk::harness::run_homogeneity_sim,
     "simulate match-merge's homogeneity test: false-flag rate and power on simulated shards"},
    {"review", stk::harness::run_review,
     "the static review page over reports/ (index.html): counts, headline figures, calibration, history"},
    {"history", stk::harness::run_history,
     "headline figures of every 'all' run (reports/history.sqlite): print, --csv, --append"},
    {"match", stk::harness::run_match,
     "self-play match A vs B: colour-reversed opening pairs, adjudication, PGN, SPRT, gate (resumable, sharded)"},
    {"compare", stk::harness::run_compare,
     "two revisions or engines side by side: bench, nodes/s, solved-set diff, tree size, audits; gates"},
    {"bench-diff", stk::harness::run_bench_diff,
     "where two builds' bench searches part: first differing position, node, path and mechanism"},
    {"replay", stk::harness::run_replay,
     "replay a reproducer bundle (reports/repro/<id>/): exit 1 while its failure happens again"},
    {"all", stk::harness::run_all, "every harness of a tier (--tier quick|full), writing reports/"},
};

int usage(std::ostream& out) {
  out << "usage: stk-harness <harness> [options]   (stk-harness <harness> --help for options)\n\n";
  for (const Command& c : kCommands) out << "  " << c.name << "\t" << c.summary << "\n";
  return 2;
}

// A run whose printed output was lost (a closed stdout) did not do what it was asked: its reports
// become <error> reports and it ends with exit 2, like any failed write.
int checked_stdout(const std::string& name, int status) {
  const std::string why = stk::harness::io::stdout_failure();
  if (why.empty()) return status;
  std::cerr << name << ": " << why << "\n";
  stk::harness::write_error_reports(name, why, "stdout failed: the run's output was lost");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  namespace io = stk::harness::io;
  io::install_signal_policy();
  stk::init_engine();
  if (argc < 2) return usage(std::cerr);
  std::string_view name = argv[1];
  if (name == "--help" || name == "-h" || name == "help")
    return usage(std::cout), checked_stdout("stk-harness", 0);
  for (const Command& c : kCommands)
    if (name == c.name) {
      const std::string label = std::string("stk-harness ") + c.name;
      io::set_interrupt_handler([label](const std::string& why) {
        stk::harness::write_error_reports(label, why, "interrupted: the run did not finish");
      });
      // An exception no command caught (a std::filesystem call on a symbolic link loop, say) is
      // still bad input or a failed write: exit 2 with <error> reports, never std::terminate.
      int status = 2;
      try {
        status = c.run(argc - 1, argv + 1);
      } catch (...) {
        status = stk::harness::input_failure(label.c_str());
      }
      return io::finish_run(checked_stdout(label, status));
    }
  std::cerr << "stk-harness: unknown harness '" << name << "'\n";
  return usage(std::cerr);
}
