// stk-harness fhgen: writes the fail-high predictor's position sets (fit.epd, heldout.epd and
// positions.json) from seeded self-play games plus a share of ECM positions. Same arguments,
// same binary: byte-identical files.
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "commands.h"
#include "cli/cli.h"
#include "cli/cli_owed_reports.h"
#include "commands/fhgen/position_sets.h"
#include "io/output_file.h"
#include "proc/command_words.h"
#include "report/build_info.h"
#include "report/run_report.h"
#include "report/summary_files.h"

namespace stk::harness {

namespace {

// A share in [0, 1), or [0, 1] when `one_allowed`.
CLI::Validator fraction(bool one_allowed) {
  return CLI::Validator(
      [one_allowed](std::string& v) -> std::string {
        char* end = nullptr;
        const double x = std::strtod(v.c_str(), &end);
        if (v.empty() || *end || !std::isfinite(x) || x < 0 || (one_allowed ? x > 1 : x >= 1))
          return std::string("must be a number in [0, 1") + (one_allowed ? "]" : ")") + ", got '" +
                 v + "'";
        return "";
      },
      one_allowed ? "[0, 1]" : "[0, 1)", "fraction");
}

std::string epd_text(const std::vector<fhgen::SetEntry>& set) {
  std::string out;
  for (const fhgen::SetEntry& e : set) out += fhgen::epd_line(e) + "\n";
  return out;
}

int ecm_in(const std::vector<fhgen::SetEntry>& set) {
  int n = 0;
  for (const fhgen::SetEntry& e : set) n += e.ecm;
  return n;
}

report::Json set_json(const std::string& file, const std::vector<fhgen::SetEntry>& set) {
  const int ecm = ecm_in(set);
  return {{"file", file},
          {"positions", set.size()},
          {"selfplay", int(set.size()) - ecm},
          {"ecm", ecm}};
}

report::Json summary_json(const fhgen::GenOptions& o, const fhgen::PositionSets& sets,
                          const std::string& command) {
  const fhgen::SelfPlayOptions& p = o.play;
  std::map<std::string, int> ends;
  long long plies = 0;
  for (const fhgen::GameRecord& g : sets.games) {
    ++ends[fhgen::game_end_name(g.end)];
    plies += g.plies;
  }
  const search::Options search = fhgen::self_play_search_options();
  report::Json j = report::Json::object();
  j["tool"] = "stk-harness fhgen";
  j["command"] = command;
  j["revision"] = build_info::git_revision();
  j["seed"] = o.seed;
  j["options"] = {{"games", o.games},
                  {"random_plies_min", p.random_plies_min},
                  {"random_plies_max", p.random_plies_max},
                  {"nodes", p.nodes},
                  {"max_plies", p.max_plies},
                  {"every", p.every},
                  {"ecm", o.ecm_fraction > 0 ? report::Json(o.ecm_path) : report::Json()},
                  {"ecm_fraction", o.ecm_fraction},
                  {"heldout", o.heldout},
                  {"split_seed", o.split_seed},
                  {"threads", 1},
                  {"hash_mb", search.hash_mb},
                  {"use_nnue", search.use_nnue}};
  j["games"] = {{"count", sets.games.size()}, {"plies", plies}, {"ends", ends}};
  j["selfplay_sampled"] = sets.sampled;
  j["selfplay_unique"] = sets.selfplay_unique;
  j["ecm_wanted"] = sets.ecm_wanted;
  j["ecm_available"] = sets.ecm_available;
  j["sets"] = {{"fit", set_json("fit.epd", sets.fit)},
               {"heldout", set_json("heldout.epd", sets.heldout)}};
  return j;
}

}  // namespace

int run_fhgen(int argc, char** argv) {
  CLI::App app{
      "Writes the fail-high predictor's position sets (fit.epd, heldout.epd, positions.json) from seeded\n"
      "self-play games (single thread, Hash 16, classical eval) plus a share of ECM positions. Same\n"
      "arguments, same binary: byte-identical files.",
      "stk-harness fhgen"};
  fhgen::GenOptions o;
  std::string out_dir;
  o.ecm_path = shared_dir() + "/suites/ECM.epd";
  app.add_option("--games", o.games, "self-play games")->required()->check(CLI::Range(1, 10000000));
  app.add_option("--seed", o.seed, "run seed: game g's random opening is seeded from (S, g)")
      ->required()
      ->check(CLI::Range(std::uint64_t(0), std::uint64_t(INT64_MAX)));
  app.add_option("--out-dir", out_dir, "writes DIR/fit.epd, DIR/heldout.epd, DIR/positions.json")
      ->required()
      ->check(CLI::Validator(
          [](std::string& d) { return d.empty() ? std::string("must not be empty") : ""; }, "DIR",
          "non-empty"));
  app.add_option("--random-plies-min", o.play.random_plies_min,
                 "uniformly random legal plies before the engine plays, at least")
      ->check(CLI::Range(0, 200))
      ->capture_default_str();
  app.add_option("--random-plies-max", o.play.random_plies_max, "... and at most (drawn per game)")
      ->check(CLI::Range(0, 200))
      ->capture_default_str();
  app.add_option("--nodes", o.play.nodes, "'go nodes N' per engine move")
      ->check(CLI::Range(std::uint64_t(1), std::uint64_t(1000000000)))
      ->capture_default_str();
  app.add_option("--max-plies", o.play.max_plies,
                 "game length limit in plies from the start position")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  app.add_option("--every", o.play.every,
                 "sample every K-th position before an engine move (in check: skipped)")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  app.add_option("--ecm", o.ecm_path, "tactical positions")->capture_default_str();
  app.add_option("--ecm-fraction", o.ecm_fraction,
                 "ECM share of all positions, in [0, 1); 0 reads no ECM file")
      ->check(fraction(false))
      ->capture_default_str();
  app.add_option("--heldout", o.heldout,
                 "share of positions, by a hash of the position, in heldout.epd, [0, 1]")
      ->check(fraction(true))
      ->capture_default_str();
  app.add_option("--split-seed", o.split_seed,
                 "salt of that hash (independent of --seed, so that one position is on\n"
                 "the same side in every run)")
      ->check(CLI::Range(std::uint64_t(0), std::uint64_t(INT64_MAX)))
      ->capture_default_str();
  if (auto status = parse_cli_or_report(app, argc, argv)) return *status;
  try {
    if (o.play.random_plies_max < o.play.random_plies_min)
      throw UsageError(fmt::format("--random-plies-max ({}) is below --random-plies-min ({})",
                                   o.play.random_plies_max, o.play.random_plies_min));

    std::string command = "stk-harness fhgen";
    for (int i = 1; i < argc; ++i) command += " " + proc::quote_word(argv[i]);

    for (const char* name : {"/fit.epd", "/heldout.epd", "/positions.json"})
      io::require_writable_target(out_dir + name);  // refused before the games are played
    auto t0 = std::chrono::steady_clock::now();
    fhgen::PositionSets sets = fhgen::generate_position_sets(o);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    write_text_file(out_dir + "/fit.epd", epd_text(sets.fit));
    write_text_file(out_dir + "/heldout.epd", epd_text(sets.heldout));
    write_text_file(out_dir + "/positions.json", summary_json(o, sets, command).dump(2) + "\n");

    const int ecm = ecm_in(sets.fit) + ecm_in(sets.heldout);
    std::cout << fmt::format("fhgen: seed {}, {} games at {} nodes in {:.1f} s\n", o.seed, o.games,
                             o.play.nodes, secs);
    std::cout << fmt::format("  self-play positions: {} sampled, {} unique\n", sets.sampled,
                             sets.selfplay_unique);
    if (o.ecm_fraction > 0)
      std::cout << fmt::format("  ECM positions: {} of {} wanted ({} usable in {})\n", ecm,
                               sets.ecm_wanted, sets.ecm_available, o.ecm_path);
    std::cout << fmt::format("  fit: {} positions ({} ECM); heldout: {} positions ({} ECM)\n",
                             sets.fit.size(), ecm_in(sets.fit), sets.heldout.size(),
                             ecm_in(sets.heldout));
    std::cout << fmt::format("wrote {0}/fit.epd, {0}/heldout.epd, {0}/positions.json\n", out_dir);
    return 0;
  } catch (...) {
    return input_failure("stk-harness fhgen", app.help().c_str());
  }
}

}  // namespace stk::harness
