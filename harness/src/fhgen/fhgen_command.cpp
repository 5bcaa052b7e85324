// stk-harness fhgen: writes the fail-high predictor's position sets (fit.epd, heldout.epd and
// positions.json) from seeded self-play games plus a share of ECM positions. Same arguments,
// same binary: byte-identical files.
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>

#include <fmt/format.h>

#include "commands.h"
#include "common/cli.h"
#include "fhgen/position_sets.h"
#include "report/build_info.h"
#include "report/summary_files.h"

namespace stk::harness {

namespace {

constexpr const char* kUsage =
    "usage: stk-harness fhgen --games N --seed S --out-dir DIR [--random-plies-min 4]\n"
    "           [--random-plies-max 10] [--nodes 2000] [--max-plies 80] [--every 3] [--ecm FILE]\n"
    "           [--ecm-fraction 0.1] [--heldout 0.2] [--split-seed 0]\n"
    "  --games N             self-play games (single thread, Hash 16, classical eval)\n"
    "  --seed S              run seed: game g's random opening is seeded from (S, g)\n"
    "  --out-dir DIR         writes DIR/fit.epd, DIR/heldout.epd, DIR/positions.json\n"
    "  --random-plies-min/max  uniformly random legal plies before the engine plays (drawn per game)\n"
    "  --nodes N             'go nodes N' per engine move\n"
    "  --max-plies N         game length limit in plies from the start position\n"
    "  --every K             sample every K-th position before an engine move (in check: skipped)\n"
    "  --ecm FILE            tactical positions (default $STK_SHARED/suites/ECM.epd)\n"
    "  --ecm-fraction F      ECM share of all positions, in [0, 1); 0 reads no ECM file\n"
    "  --heldout F           share of positions, by a hash of the position, in heldout.epd, [0, 1]\n"
    "  --split-seed K        salt of that hash (default 0, independent of --seed, so that one\n"
    "                        position is on the same side in every run)\n";

double parse_fraction(const Args& args, const std::string& name, double fallback, bool one_allowed) {
  if (!args.has(name)) return fallback;
  const std::string v = args.get(name);
  char* end = nullptr;
  double x = std::strtod(v.c_str(), &end);
  if (v.empty() || *end || !std::isfinite(x) || x < 0 || (one_allowed ? x > 1 : x >= 1))
    throw UsageError("option --" + name + " must be a number in [0, 1" + (one_allowed ? "]" : ")") +
                     ", got '" + v + "'");
  return x;
}

std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789-_=./:,+@%") == std::string::npos)
    return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
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

std::string set_json(const std::string& file, const std::vector<fhgen::SetEntry>& set) {
  int ecm = ecm_in(set);
  return fmt::format("{{\"file\": {}, \"positions\": {}, \"selfplay\": {}, \"ecm\": {}}}", json_str(file),
                     set.size(), int(set.size()) - ecm, ecm);
}

std::string summary_json(const fhgen::GenOptions& o, const fhgen::PositionSets& sets,
                         const std::string& command) {
  const fhgen::SelfPlayOptions& p = o.play;
  std::map<std::string, int> ends;
  long long plies = 0;
  for (const fhgen::GameRecord& g : sets.games) {
    ++ends[fhgen::game_end_name(g.end)];
    plies += g.plies;
  }
  std::string ends_json;
  for (const auto& [name, n] : ends) ends_json += fmt::format("{}{}: {}", ends_json.empty() ? "" : ", ", json_str(name), n);
  std::string j = "{\n";
  j += fmt::format("  \"tool\": \"stk-harness fhgen\",\n  \"command\": {},\n", json_str(command));
  j += fmt::format("  \"revision\": {},\n  \"seed\": {},\n", json_str(build_info::git_revision()), o.seed);
  j += fmt::format(
      "  \"options\": {{\"games\": {}, \"random_plies_min\": {}, \"random_plies_max\": {}, \"nodes\": {}, "
      "\"max_plies\": {}, \"every\": {}, \"ecm\": {}, \"ecm_fraction\": {}, \"heldout\": {}, \"split_seed\": {}, "
      "\"threads\": 1, \"hash_mb\": 16, \"use_nnue\": false}},\n",
      o.games, p.random_plies_min, p.random_plies_max, p.nodes, p.max_plies, p.every,
      o.ecm_fraction > 0 ? json_str(o.ecm_path) : "null", o.ecm_fraction, o.heldout, o.split_seed);
  j += fmt::format("  \"games\": {{\"count\": {}, \"plies\": {}, \"ends\": {{{}}}}},\n", sets.games.size(), plies,
                   ends_json);
  j += fmt::format("  \"selfplay_sampled\": {},\n  \"selfplay_unique\": {},\n", sets.sampled, sets.selfplay_unique);
  j += fmt::format("  \"ecm_wanted\": {},\n  \"ecm_available\": {},\n", sets.ecm_wanted, sets.ecm_available);
  j += fmt::format("  \"sets\": {{\n    \"fit\": {},\n    \"heldout\": {}\n  }}\n}}\n", set_json("fit.epd", sets.fit),
                   set_json("heldout.epd", sets.heldout));
  return j;
}

}  // namespace

int run_fhgen(int argc, char** argv) {
  try {
    Args args(argc, argv,
              {"games", "seed", "out-dir", "random-plies-min", "random-plies-max", "nodes", "max-plies",
               "every", "ecm", "ecm-fraction", "heldout", "split-seed"},
              {"help"});
    if (args.has("help")) return std::cout << kUsage, 0;
    if (!args.positional().empty()) throw UsageError("unexpected argument '" + args.positional()[0] + "'");
    for (const char* required : {"games", "seed", "out-dir"})
      if (!args.has(required)) throw UsageError(std::string("--") + required + " is required");

    fhgen::GenOptions o;
    o.games = int(args.get_int("games", 0, 1, 10000000));
    o.seed = std::uint64_t(args.get_int("seed", 0, 0, INT64_MAX));
    o.split_seed = std::uint64_t(args.get_int("split-seed", 0, 0, INT64_MAX));
    o.play.random_plies_min = int(args.get_int("random-plies-min", 4, 0, 200));
    o.play.random_plies_max = int(args.get_int("random-plies-max", 10, 0, 200));
    if (o.play.random_plies_max < o.play.random_plies_min)
      throw UsageError(fmt::format("--random-plies-max ({}) is below --random-plies-min ({})",
                                   o.play.random_plies_max, o.play.random_plies_min));
    o.play.nodes = std::uint64_t(args.get_int("nodes", 2000, 1, 1000000000));
    o.play.max_plies = int(args.get_int("max-plies", 80, 1, 10000));
    o.play.every = int(args.get_int("every", 3, 1, 10000));
    o.ecm_fraction = parse_fraction(args, "ecm-fraction", 0.1, false);
    o.heldout = parse_fraction(args, "heldout", 0.2, true);
    o.ecm_path = args.get("ecm", shared_dir() + "/suites/ECM.epd");
    const std::string out_dir = args.get("out-dir");
    if (out_dir.empty()) throw UsageError("--out-dir must not be empty");

    std::string command = "stk-harness fhgen";
    for (int i = 1; i < argc; ++i) command += " " + shell_quote(argv[i]);

    auto t0 = std::chrono::steady_clock::now();
    fhgen::PositionSets sets = fhgen::generate_position_sets(o);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    write_text_file(out_dir + "/fit.epd", epd_text(sets.fit));
    write_text_file(out_dir + "/heldout.epd", epd_text(sets.heldout));
    write_text_file(out_dir + "/positions.json", summary_json(o, sets, command));

    const int ecm = ecm_in(sets.fit) + ecm_in(sets.heldout);
    std::cout << fmt::format("fhgen: seed {}, {} games at {} nodes in {:.1f} s\n", o.seed, o.games, o.play.nodes, secs);
    std::cout << fmt::format("  self-play positions: {} sampled, {} unique\n", sets.sampled, sets.selfplay_unique);
    if (o.ecm_fraction > 0)
      std::cout << fmt::format("  ECM positions: {} of {} wanted ({} usable in {})\n", ecm, sets.ecm_wanted,
                               sets.ecm_available, o.ecm_path);
    std::cout << fmt::format("  fit: {} positions ({} ECM); heldout: {} positions ({} ECM)\n", sets.fit.size(),
                             ecm_in(sets.fit), sets.heldout.size(), ecm_in(sets.heldout));
    std::cout << fmt::format("wrote {0}/fit.epd, {0}/heldout.epd, {0}/positions.json\n", out_dir);
    return 0;
  } catch (...) {
    return input_failure("stk-harness fhgen", kUsage);
  }
}

}  // namespace stk::harness
