#include "commands/match/match_runner.h"

#include <sys/resource.h>

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "cli/cli.h"
#include "io/output_file.h"
#include "match_results/aa_mirror.h"
#include "match_results/game_diagnostics.h"
#include "match_results/match_analysis.h"
#include "match_results/match_report.h"
#include "match_results/match_journal.h"
#include "commands/match/pgn_writer.h"
#include "proc/command_words.h"
#include "repro/bundle.h"
#include "repro/minimize.h"

namespace stk::harness::selfplay {

using namespace match;

namespace {

// One opening pair to play: of the A/B match, or of the A/A control.
struct Task {
  std::uint64_t opening = 0;
  bool control = false;
};

struct PlayedPair {
  PairRecord record;
  std::string pgn;
};

double cpu_seconds(int who) {
  rusage u{};
  getrusage(who, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// The engines one worker thread drives; started on first use, restarted by play_game after a fault.
class EngineSet {
 public:
  explicit EngineSet(const MatchPlan& plan) : plan_(plan) {}
  UciPlayer& get(int role) {  // 0 A, 1 B, 2 the control's second B
    if (!players_[role]) {
      const EngineConfig& c = plan_.engines[role == 0 ? 0 : 1];
      const std::string label = (role == 0 ? "A (" : role == 1 ? "B (" : "B' (") + c.name + ")";
      players_[role] = std::make_unique<UciPlayer>(c, label, plan_.settings.move_timeout);
      players_[role]->start();
    }
    return *players_[role];
  }

 private:
  const MatchPlan& plan_;
  std::array<std::unique_ptr<UciPlayer>, 3> players_;
};

// Bundles a run leaves (docs/reproducers.md): every replay costs engine time, so only the first
// fault of each engine and symptom is minimized, and a run that faults in every game stops
// leaving bundles.
constexpr int kMinimizedBundles = 4;
constexpr int kMaxBundles = 20;
std::atomic<int> bundles_left_behind{0};
repro::FirstOfEachSymptom minimized_faults(kMinimizedBundles);

void leave_reproducer(const MatchPlan& plan, const Task& task, int game, const FailedEngine& f) {
  const int n = bundles_left_behind++;
  if (n >= kMaxBundles) return;
  const std::string id = fmt::format("{}-o{}-g{}", task.control ? plan.aa_stem : plan.stem,
                                     task.opening, game + 1);
  repro::Failure failure;
  failure.id = id;
  failure.source = "match";
  failure.engine = f.engine;
  failure.side = f.label + (f.side == 0 ? " as White" : " as Black");
  failure.what = f.reason;
  failure.symptom = f.symptom;
  failure.commands = f.record.commands;
  failure.transcript = f.record.transcript;
  failure.stderr_text = f.stderr_text;
  std::optional<repro::Minimized> m;
  // A late answer depends on the machine's load: a replay would not see it.
  std::string not_minimized = f.symptom.kind == "late-answer"
                                  ? "a late answer"
                                  : minimized_faults.claim(f.engine, f.symptom, id);
  if (not_minimized.empty()) {
    repro::ReplayLimits limits;
    limits.answer = std::max(plan.settings.move_timeout, std::chrono::milliseconds(2000));
    m = repro::minimize_commands(f.engine, f.record.commands, f.symptom, limits);
  }
  const std::string dir = repro::write_bundle(plan.repro_dir, failure, m ? &*m : nullptr);
  std::cout << fmt::format("match: reproducer {} ({}{}): {}\n", dir, f.symptom.describe(),
                           !m              ? ", not minimized: " + not_minimized
                           : m->reproduced ? fmt::format(", {} of {} commands", m->commands.size(),
                                                         f.record.commands.size())
                                           : ", not reproduced by a replay",
                           proc::display_command({"stk-harness", "replay", dir}))
            << std::flush;
}

PlayedPair play_pair(const MatchPlan& plan, EngineSet& engines, const Task& task) {
  const MatchDefinition& def = task.control ? *plan.aa_definition : plan.definition;
  const Opening& opening = plan.openings[task.opening % plan.openings.size()];
  UciPlayer& first = engines.get(task.control ? 1 : 0);
  UciPlayer& second = engines.get(task.control ? 2 : 1);
  PlayedPair out;
  out.record.opening = task.opening;
  out.record.position = opening.position_key();
  for (int game = 0; game < 2; ++game) {
    // Game 1: the first engine (A) has White; game 2: colours reversed.
    const bool first_white = game == 0;
    GameSettings s = plan.settings;
    const TimeControl first_budget = plan.settings.budget[task.control ? 1 : 0];
    const TimeControl second_budget = plan.settings.budget[1];
    s.budget = first_white ? std::array{first_budget, second_budget}
                           : std::array{second_budget, first_budget};
    const std::array<UciPlayer*, 2> players = first_white ? std::array{&first, &second}
                                                          : std::array{&second, &first};
    const PlayedGame g = play_game(players, opening, s);
    if (g.failed && !plan.repro_dir.empty()) leave_reproducer(plan, task, game, *g.failed);
    out.record.games[std::size_t(game)] = GameRecord{first_white ? Color::White : Color::Black,
                                                     g.result, g.reason, g.engine_plies, g.ended};
    PgnHeader h;
    h.event = def.config;
    h.white = def.engines[first_white ? 0 : 1].name;
    h.black = def.engines[first_white ? 1 : 0].name;
    h.time_control = def.time_control;
    h.opening = task.opening;
    h.game = game + 1;
    h.opening_source = opening.source;
    out.pgn += to_pgn(h, opening, g);
  }
  return out;
}

void append_file(const std::string& path, const std::string& text) {
  io::append_to_file(path, text);
}

std::set<std::uint64_t> recorded(const MatchResult& r) {
  std::set<std::uint64_t> s;
  for (const PairRecord& p : r.pairs()) s.insert(p.opening);
  return s;
}

std::string progress_line(const MatchResult& r, const char* label) {
  const MatchCounts& c = r.counts();
  const MatchAnalysis a = analyse(c.penta, c.wdl, r.definition().sprt);
  return fmt::format("[{}] {}/{}: {}", label, r.pairs().size(), r.definition().pairs_planned,
                     one_line(a));
}

// An A/A control at a fixed budget names each pair that was not mirrored by its opening.
void name_unmirrored(const MatchResult& r, const MatchPlan& plan) {
  if (r.definition().gate.mode != GateMode::AAControl || !fixed_budget(r.definition())) return;
  for (std::uint64_t o : check_mirrored(r).not_mirrored)
    std::cout << fmt::format("A/A pair {} not mirrored: opening {} ({})\n", o,
                             plan.openings[o % plan.openings.size()].source,
                             plan.openings[o % plan.openings.size()].fen);
}

// The pairs still to play, by opening: the A/B pair, then the A/A control's (when there is one).
std::vector<Task> pending_tasks(const MatchResult& result, const MatchResult* control) {
  std::vector<Task> tasks;
  std::set<std::uint64_t> openings;
  for (auto o : result.remaining()) openings.insert(o);
  if (control)
    for (auto o : control->remaining()) openings.insert(o);
  for (auto o : openings) {
    if (result.planned(o) && !result.has(o)) tasks.push_back({o, false});
    if (control && control->planned(o) && !control->has(o)) tasks.push_back({o, true});
  }
  return tasks;
}

// The reports of the match and of its A/A control (when it has pairs), with the run's cost, early
// stop and faults as properties; returns the worse exit code of the two.
int publish_run(const MatchPlan& plan, const MatchResult& result, const MatchResult* control,
                const std::string& cost, bool decided) {
  auto properties = plan.properties;
  properties.emplace_back("run.cost", cost);
  // An SPRT that decided before the planned pairs stops the run: said, and recorded with the reports.
  if (decided && !result.complete()) {
    const std::string stopped =
        fmt::format("SPRT {} after {} of {} planned pairs: the match stopped early",
                    to_string(result.sprt_result()->verdict), result.pairs().size(),
                    plan.definition.pairs_planned);
    properties.emplace_back("run.stopped", stopped);
    std::cout << stopped << "\n";
  }
  const std::string faults = fault_line(termination_table(result), result.definition());
  properties.emplace_back("run.faults", faults);
  std::cout << "games lost by a fault: " << faults << "\n";
  int exit_code = 0;
  if (result.pairs().empty())
    throw InputError("match '" + plan.definition.config + "': no game pairs played");
  const MatchPublished pub = publish_match(result, properties, plan.out_dir, plan.stem,
                                           {nullptr, plan.max_faults});
  exit_code = pub.exit_code;
  name_unmirrored(result, plan);
  std::cout << (plan.quiet ? pub.verdict_line() : pub.summary);
  if (control && !control->pairs().empty()) {
    const MatchPublished aa = publish_match(*control, properties, plan.out_dir, plan.aa_stem,
                                            {nullptr, plan.max_faults});
    name_unmirrored(*control, plan);
    if (aa.exit_code != 0)
      std::cout << "A/A CONTROL FAILED: " << evaluate_gate(*control).verdict
                << "; do not trust the A/B result\n";
    std::cout << (plan.quiet ? "" : aa.summary);
    exit_code = std::max(exit_code, aa.exit_code);
  }
  return exit_code;
}

// The journals' dropped lines said, the PGN cut back to the pairs the journals hold, and the
// resumed count said.
void resume(const MatchPlan& plan, const std::array<std::string, 2>& dropped,
            const MatchJournal& journal, const MatchJournal* aa_journal) {
  const MatchResult& result = journal.result();
  for (const std::string& d : dropped)
    if (!d.empty()) std::cout << d << "\n";
  // Games of a pair that was in progress when a run was killed are in the PGN but not in the state.
  drop_unrecorded_tail(plan.pgn_path, result.definition().config, recorded(result),
                       journal.resumed());
  if (aa_journal)
    drop_unrecorded_tail(plan.aa_pgn_path, aa_journal->result().definition().config,
                         recorded(aa_journal->result()), aa_journal->resumed());
  if (!plan.quiet && !result.pairs().empty())
    std::cout << "resuming " << plan.state_path << ": " << result.pairs().size()
              << " pairs recorded\n";
}

// The run's cost: wall time, and the harness's CPU time against the engines'.
struct RunClock {
  double self0 = 0, children0 = 0;
  SteadyClock::time_point wall0;

  static RunClock start() {
    return {cpu_seconds(RUSAGE_SELF), cpu_seconds(RUSAGE_CHILDREN), SteadyClock::now()};
  }
  std::string cost(std::size_t games, int n_threads) const {
    const double wall_s = std::chrono::duration<double>(SteadyClock::now() - wall0).count();
    const double self_s = cpu_seconds(RUSAGE_SELF) - self0,
                 children_s = cpu_seconds(RUSAGE_CHILDREN) - children0;
    return fmt::format(
        "this run: {} games in {:.1f} s ({:.1f} games/min, {} threads); CPU harness {:.2f} s, engines {:.2f} s: "
        "harness/engines {:.2f}%",
        games, wall_s, wall_s > 0 ? games * 60 / wall_s : 0.0, n_threads, self_s, children_s,
        children_s > 0 ? 100 * self_s / children_s : 0.0);
  }
};

}  // namespace

int run_match(const MatchPlan& plan) {
  std::string dropped, aa_dropped;
  MatchJournal journal(plan.state_path, plan.definition, plan.shard_index, &dropped);
  std::unique_ptr<MatchJournal> aa_journal;
  if (plan.aa_definition)
    aa_journal = std::make_unique<MatchJournal>(plan.aa_state_path, *plan.aa_definition,
                                                plan.shard_index, &aa_dropped);
  const MatchResult& result = journal.result();
  const MatchResult* control = aa_journal ? &aa_journal->result() : nullptr;
  resume(plan, {dropped, aa_dropped}, journal, aa_journal.get());

  // Both engines must come up (uci, options, isready) before the first game.
  {
    EngineSet check(plan);
    check.get(0), check.get(1);
  }

  const std::vector<Task> tasks = pending_tasks(result, control);
  const bool sharded = plan.definition.shard_count > 1;
  auto decided = [&] {
    auto s = result.sprt_result();
    return !sharded && s && s->verdict != Verdict::Continue;
  };

  const RunClock clock = RunClock::start();
  std::mutex mutex;
  std::condition_variable cv;
  std::map<std::size_t, PlayedPair> done;
  std::exception_ptr failure;
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{decided()};
  auto worker = [&] {
    try {
      EngineSet engines(plan);
      while (!stop) {
        const std::size_t i = next++;
        if (i >= tasks.size()) break;
        PlayedPair p = play_pair(plan, engines, tasks[i]);
        std::lock_guard lock(mutex);
        done.emplace(i, std::move(p));
        cv.notify_all();
      }
    } catch (...) {
      std::lock_guard lock(mutex);
      if (!failure) failure = std::current_exception();
      stop = true;
      cv.notify_all();
    }
  };
  std::vector<std::thread> threads;
  const int n_threads = std::max(1, std::min<int>(plan.concurrency, int(tasks.size())));
  for (int t = 0; t < n_threads && !stop; ++t) threads.emplace_back(worker);

  // Record in task order: the state and the PGN never depend on which thread finished first.
  std::size_t games = 0;
  for (std::size_t i = 0; i < tasks.size() && !stop; ++i) {
    PlayedPair p;
    {
      std::unique_lock lock(mutex);
      cv.wait(lock, [&] { return done.count(i) || failure; });
      if (!done.count(i)) break;
      p = std::move(done.at(i));
      done.erase(i);
    }
    // The PGN first: a kill between the two leaves games that the next run drops (drop_unrecorded_tail).
    // A write that fails stops the workers; the error is raised once they are joined (never while
    // they run: a thread left joinable would terminate the process).
    try {
      MatchJournal& pair_journal = tasks[i].control ? *aa_journal : journal;
      pair_journal.open();  // first: a stop after the PGN write leaves a journal to resume
      append_file(tasks[i].control ? plan.aa_pgn_path : plan.pgn_path, p.pgn);
      pair_journal.record(p.record);
    } catch (...) {
      std::lock_guard lock(mutex);
      if (!failure) failure = std::current_exception();
      stop = true;
      break;
    }
    games += 2;
    if (!tasks[i].control && !plan.quiet &&
        result.pairs().size() % std::size_t(plan.progress_every) == 0) {
      std::cout << progress_line(result, "A/B") << "\n";
      if (control && !control->pairs().empty()) std::cout << progress_line(*control, "A/A") << "\n";
      std::cout.flush();
    }
    if (decided()) stop = true;
  }
  stop = true;
  for (std::thread& t : threads) t.join();  // the workers' engines are gone (and reaped) after this
  if (failure) std::rethrow_exception(failure);
  journal.close();
  if (aa_journal) aa_journal->close();

  const std::string cost = clock.cost(games, n_threads);

  const int exit_code = publish_run(plan, result, control, cost, decided());
  std::cout << cost << "\n";
  return exit_code;
}

}  // namespace stk::harness::selfplay
