// stk-harness datagen: self-play training data (docs/datagen.md). Seeded balanced openings, the
// engine on both sides at fixed nodes, one record per position before an engine move; resumable
// from its journal, shardable, and byte-identical for any --concurrency.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/cli.h"
#include "common/counts.h"
#include "cli/cli_owed_reports.h"
#include "cli/file_names.h"
#include "commands.h"
#include "commands/datagen/datagen_file.h"
#include "commands/datagen/datagen_teacher.h"
#include "commands/datagen/datagen_terminations.h"
#include "io/input_file.h"
#include "io/run_lock.h"
#include "report/build_info.h"
#include "report/run_report.h"

namespace stk::harness {

namespace {

using report::Json;

struct Settings {
  int games = 100;
  std::uint64_t seed = 1;
  datagen::GameOptions game;
  datagen::OpeningOptions opening;
  std::string openings;  // a book instead of generated openings
  std::string out;       // data file
  std::string out_dir = "reports";
  std::string config;
  std::string shard_text = "1/1";
  Shard shard;
  int concurrency = 1;
  std::string teacher;              // a UCI engine whose search labels the records ("": ours)
  std::uint64_t teacher_nodes = 0;  // its "go nodes"; 0: --nodes
  std::uint64_t teacher_budget() const { return teacher_nodes ? teacher_nodes : game.nodes; }
};

std::string labels_of(const Settings& s) {
  if (s.teacher.empty()) return "stk search, White's view";
  return fmt::format("teacher {} at {} nodes, White's view", s.teacher, s.teacher_budget());
}

Json definition_of(const Settings& s) {
  return {{"games", s.games},
          {"seed", s.seed},
          {"nodes", s.game.nodes},
          {"max_plies", s.game.max_plies},
          {"adjudication", s.game.adjudication.text()},
          {"openings", s.openings.empty() ? Json("generated") : Json(s.openings)},
          {"random_plies", s.opening.random_plies},
          {"balance_cp", s.opening.balance_cp},
          {"balance_nodes", s.opening.balance_nodes},
          {"shard", s.shard.label()},
          {"labels", labels_of(s)}};
}

// A book, in the order --seed shuffles it; empty: each game generates its own opening.
std::vector<selfplay::Opening> book_of(const Settings& s) {
  if (s.openings.empty()) return {};
  std::vector<selfplay::Opening> book = selfplay::read_openings(s.openings);
  selfplay::shuffle_openings(book, s.seed);
  return book;
}

// Plays `todo` on `threads` workers; hands each game to `emit` in the order of `todo`.
void play_in_order(const std::vector<int>& todo, const std::vector<selfplay::Opening>& book,
                   const Settings& s, const std::function<void(const datagen::Game&)>& emit) {
  std::mutex m;
  std::condition_variable ready;
  std::map<std::size_t, datagen::Game> finished;
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::exception_ptr failure;
  auto worker = [&] {
    try {
      search::Searcher searcher;
      std::unique_ptr<datagen::Teacher> teacher;  // one per worker: a process answers one game
      if (!s.teacher.empty())
        teacher = std::make_unique<datagen::Teacher>(s.teacher, s.teacher_budget());
      for (std::size_t i; !stop && (i = next++) < todo.size();) {
        const int g = todo[i];
        const selfplay::Opening opening = book.empty()
                                              ? datagen::generated_opening(searcher, s.opening,
                                                                           s.seed, g)
                                              : book[std::size_t(g) % book.size()];
        datagen::Game game = datagen::play_game(searcher, opening, s.game, g, teacher.get());
        std::lock_guard<std::mutex> lock(m);
        finished.emplace(i, std::move(game));
        ready.notify_all();
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(m);
      if (!failure) failure = std::current_exception();
      stop = true;
      ready.notify_all();
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < std::min<int>(s.concurrency, int(todo.size())); ++t)
    pool.emplace_back(worker);
  try {
    for (std::size_t i = 0; i < todo.size(); ++i) {
      std::unique_lock<std::mutex> lock(m);
      ready.wait(lock, [&] { return finished.count(i) || stop; });
      if (!finished.count(i)) break;
      datagen::Game game = std::move(finished[i]);
      finished.erase(i);
      lock.unlock();
      emit(game);  // a write error stops the workers and propagates
    }
  } catch (...) {
    stop = true;
    for (std::thread& t : pool) t.join();
    throw;
  }
  for (std::thread& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

void add_options(CLI::App& app, Settings& s) {
  app.add_option("--games", s.games, "games in the run (all shards together)")
      ->check(CLI::Range(1, 100000000))
      ->capture_default_str();
  app.add_option("--seed", s.seed, "seed of the openings (and of a book's order)")
      ->capture_default_str();
  app.add_option("--nodes", s.game.nodes, "'go nodes N' for every move")
      ->check(CLI::Range(std::uint64_t(1), std::uint64_t(1000000000)))
      ->capture_default_str();
  app.add_option("--max-plies", s.game.max_plies, "engine plies before a game is a draw")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  app.add_option("--random-plies", s.opening.random_plies,
                 "random legal plies of a generated opening")
      ->check(CLI::Range(6, 40))
      ->capture_default_str();
  app.add_option("--balance", s.opening.balance_cp,
                 "a generated opening is kept when searched within +-CP")
      ->check(CLI::Range(1, 5000))
      ->capture_default_str();
  app.add_option("--balance-nodes", s.opening.balance_nodes, "nodes of that search")
      ->check(CLI::Range(std::uint64_t(1), std::uint64_t(100000000)))
      ->capture_default_str();
  app.add_option("--openings", s.openings,
                 "EPD or PGN book instead of generated openings (seeded order)");
  app.add_option("--out", s.out,
                 "data file (default build/datagen/<config>.txt); its journal <out>.journal");
  app.add_option("--out-dir", s.out_dir, "reports directory")->capture_default_str();
  app.add_option("--config", s.config, "report name (default seed<S>, with -shardKofN)");
  app.add_option("--shard", s.shard_text, "K/N: games i with i % N == K-1")
      ->check(shard_check())
      ->capture_default_str();
  app.add_option("--concurrency", s.concurrency, "games played at once (one thread each)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  app.add_option(
         "--teacher", s.teacher,
         "UCI engine (a path, or a command line CMD ARGS split into words as a shell quotes "
         "them: docs/uci.md) whose search labels every record, e.g. /usr/games/stockfish; "
         "the games stay stk's")
      ->check(engine_command_check());
  app.add_option("--teacher-nodes", s.teacher_nodes, "the teacher's 'go nodes' (default --nodes)")
      ->check(CLI::Range(std::uint64_t(1), std::uint64_t(1000000000)));
}

std::string default_config(const Settings& s) {
  std::string c = s.config.empty() ? "seed" + std::to_string(s.seed) : s.config;
  if (s.config.empty() && s.shard.count > 1)
    c += fmt::format("-shard{}of{}", s.shard.index, s.shard.count);
  return c;
}

}  // namespace

int run_datagen(int argc, char** argv) {
  CLI::App app{
      "Self-play training data: seeded balanced openings, stk on both sides at fixed nodes, one\n"
      "record per position (FEN | score | result | ply | quiet; docs/datagen.md). Resumable from\n"
      "<out>.journal; the same arguments write the same bytes at any --concurrency.",
      "stk-harness datagen"};
  Settings s;
  s.game.adjudication.draw = selfplay::Adjudication::Draw{};
  // Decided positions are kept (a net must learn them): resign only when both sides agree on
  // +-2000 cp for 4 moves each.
  s.game.adjudication.resign = selfplay::Adjudication::Resign{4, 2000};
  add_options(app, s);
  auto declare = [&] {  // a parse error still leaves the <error> report of the run it names
    Settings named;
    named.config = given_value(app, "--config", "");
    const std::optional<std::uint64_t> seed = parse_count(given_value(app, "--seed", "1"));
    std::optional<Shard> shard;
    try {  // the default name needs --seed and --shard as they would parse
      shard = parse_shard(given_value(app, "--shard", "1/1"));
    } catch (const UsageError&) {
    }
    if (named.config.empty() && !(seed && shard)) return;  // no name known: nothing owed
    named.seed = seed.value_or(0);
    named.shard = shard.value_or(Shard{});
    const std::string c = default_config(named);
    if (is_safe_name(c))
      declare_report(report::junit_path(given_value(app, "--out-dir", "reports"), "datagen", c),
                     "datagen." + c);
  };
  if (auto status = parse_cli_or_report(app, argc, argv, declare)) return *status;
  try {
    s.shard = parse_shard(s.shard_text);
    if (!s.config.empty()) require_safe_name("--config", s.config);
    const std::string config = default_config(s);
    const report::ReportPaths paths = report::report_paths(s.out_dir, "datagen", config);
    declare_report(paths, "datagen." + config);
    if (s.out.empty()) s.out = "build/datagen/" + config + ".txt";
    const io::RunLock lock(io::RunLock::OfFile{}, s.out);

    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<selfplay::Opening> book = book_of(s);
    std::string notice;
    datagen::DataWriter writer(s.out, definition_of(s), &notice);
    if (!notice.empty()) std::cerr << "datagen: " << notice << "\n";
    std::vector<int> todo;
    for (int g = 0; g < s.games; ++g)
      if (s.shard.takes(std::size_t(g))) todo.push_back(g);
    const std::size_t resumed = writer.done().size();
    if (resumed > todo.size())
      throw InputError(fmt::format("{}: records {} games, more than the shard's {}",
                                   writer.journal_path(), resumed, todo.size()));
    for (std::size_t i = 0; i < resumed; ++i)
      if (writer.done()[i].game != todo[i])
        throw InputError(fmt::format("{}: game {} where game {} was due", writer.journal_path(),
                                     writer.done()[i].game, todo[i]));
    std::cout << fmt::format(
        "datagen: seed {}, {} games (shard {}: {}, {} already in {}), {} nodes, concurrency {}\n",
        s.seed, s.games, s.shard.label(), todo.size(), resumed, s.out, s.game.nodes, s.concurrency);
    const auto t_play = std::chrono::steady_clock::now();
    long long positions = 0;
    play_in_order(
        {todo.begin() + std::ptrdiff_t(resumed), todo.end()}, book, s, [&](const datagen::Game& g) {
          writer.write(g);
          positions += long(g.records.size());
          const double secs =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t_play).count();
          const std::size_t n = writer.done().size();
          if (n % 10 == 0 || n == todo.size())
            std::cout
                << fmt::format(
                       "datagen: {}/{} games, {} positions this run, {:.0f} positions/s per core\n",
                       n, todo.size(), positions, positions / std::max(secs, 1e-9) / s.concurrency)
                << std::flush;
        });
    writer.close();
    const double play_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t_play).count();
    const double all_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    // The report: what the file holds, read back and checked against the journal.
    long long records = 0, quiet = 0;
    std::map<std::string, int> results;
    for (const datagen::JournalGame& g : writer.done()) {
      records += g.records;
      ++results[g.result];
    }
    const datagen::TerminationCounts ends = datagen::count_terminations(writer.done());
    {
      // Quiet share from the data file itself (the journal does not hold it).
      const datagen::ReadBack back = datagen::verify_data(s.out, writer.done());
      const std::string& problem = back.problem;
      quiet = back.quiet;
      report::RunReport run{"datagen", config};
      junit::TestSuite suite;
      suite.name = "datagen." + config, suite.time_s = all_s;
      junit::add_build_properties(suite);
      suite.property("seed", std::to_string(s.seed));
      suite.property("shard", s.shard.label());
      for (const auto& [kind, n] : ends)
        suite.property(std::string("terminations.") + match::to_string(kind),
                       fmt::format("white {}, draws {}, black {}", n[0], n[1], n[2]));
      junit::TestCase games;
      games.classname = "datagen." + config, games.name = "games", games.time_s = play_s;
      if (writer.done().size() != todo.size())
        games.outcome = junit::Outcome::Failed,
        games.message = fmt::format("{} of {} games in the file", writer.done().size(),
                                    todo.size());
      games.system_out = "ended: " + datagen::terminations_line(ends) + "\n";
      junit::TestCase readback;
      readback.classname = "datagen." + config, readback.name = "data file reads back";
      if (!problem.empty()) readback.outcome = junit::Outcome::Failed, readback.message = problem;
      suite.cases = {games, readback};
      run.suites.push_back(suite);

      run.figures = {{"command", "stk-harness datagen"},
                     {"revision", build_info::git_revision()},
                     {"definition", definition_of(s)},
                     {"data", s.out},
                     {"journal", writer.journal_path()},
                     {"format",
                      "FEN | score (White's view, cp) | result (White's view) | ply | quiet"},
                     {"teacher", s.teacher.empty() ? Json("stk (own search)") : Json(s.teacher)},
                     {"labels", labels_of(s)},
                     {"games", writer.done().size()},
                     {"positions", records},
                     {"quiet_positions", quiet},
                     {"results", results},
                     {"terminations", datagen::terminations_json(ends)},
                     {"games_this_run", writer.done().size() - resumed},
                     {"positions_this_run", positions},
                     {"seconds", all_s},
                     {"play_seconds", play_s},
                     {"concurrency", s.concurrency},
                     {"positions_per_second_per_core",
                      positions / std::max(play_s, 1e-9) / s.concurrency}};
      run.markdown = fmt::format("{} games, {} positions ({} quiet) in `{}`.\n\n{}",
                                 writer.done().size(), records, quiet, s.out,
                                 datagen::terminations_markdown(ends));
      report::write_run_report(run, paths);
      std::cout << fmt::format(
          "datagen: {} games, {} positions ({} quiet), {:.0f} positions/s per core; "
          "wrote {} and {}\ndatagen: ended: {}\n",
          writer.done().size(), records, quiet, positions / std::max(play_s, 1e-9) / s.concurrency,
          s.out, paths.json, datagen::terminations_line(ends));
      return report::exit_status(run);
    }
  } catch (...) {
    return input_failure("stk-harness datagen", app.help().c_str());
  }
}

}  // namespace stk::harness
