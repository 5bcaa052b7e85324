// Independent model of the history database (docs/review.md, "History"): runs with generated
// figures appended, read back and grouped into series, against a model kept in memory.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

#include "cli_support.h"
#include "commands/history/history.h"

// One namespace per file: the tests build in unity batches, where a using-directive or helper
// name of one file would otherwise reach the next.
namespace history_model_test {

namespace fs = std::filesystem;
using namespace stk::harness;

// MODEL history-rows
// checks: harness/src/commands/history/history.cpp  (what the history database reads back, and its series)
// contract: docs/review.md#history
// planted: ci/mutants/model-history-rows.patch  (figure values stored as integers)
TEST_CASE("history reads back every appended figure as a model of runs and keys says",
          "[model][history]") {
  // Each append is a transaction with its fsyncs: in memory-backed /dev/shm when there is one.
  const auto dir = fs::is_directory("/dev/shm")
                       ? fs::path("/dev/shm") / ("stk-history-model-" + std::to_string(::getpid()))
                       : stk::test::scratch_dir("history-model");
  fs::create_directories(dir);
  rc::prop("generated runs in any figure order", [dir] {
    const std::string db = (dir / "history.sqlite").string();
    fs::remove(db);
    const int runs = *rc::gen::inRange(1, 5);
    struct ModelRun {
      review::RunFacts facts;
      std::map<std::string, double> figures;
    };
    std::vector<ModelRun> model;
    for (int r = 0; r < runs; ++r) {
      ModelRun m;
      m.facts = {"rev" + std::to_string(r) + "'x", "2026-12-0" + std::to_string(r + 1),
                 *rc::gen::elementOf(std::vector<std::string>{"quick", "full"}), "cpu \"model\"",
                 *rc::gen::inRange(1, 64)};
      std::vector<review::Figure> figures;
      const int n = *rc::gen::inRange(0, 6);
      for (int i = 0; i < n; ++i) {
        review::Figure f;
        f.key = *rc::gen::elementOf(std::vector<std::string>{"perft.q.nodes", "bench.q.nodes",
                                                             "drift.h.p99", "Z", "a/b~c", "é"});
        f.value = *rc::gen::elementOf(
            std::vector<double>{0.0, -1.5, 2.25, 1e15 + 0.5, 1.0 / 3.0, 123456789.0, -0.0});
        figures.push_back(f);
        m.figures[f.key] = f.value;  // a key given twice keeps the later value
      }
      review::append_history(db, m.facts, figures);
      model.push_back(m);
    }
    const auto rows = review::read_history(db);
    std::size_t at = 0;
    long long last_id = 0;
    for (const auto& m : model) {
      long long id = -1;
      for (const auto& [key, value] : m.figures) {  // std::map: byte order
        RC_ASSERT(at < rows.size());
        const auto& row = rows[at++];
        if (id < 0) id = row.run_id;
        RC_ASSERT(row.run_id == id);
        RC_ASSERT(row.run_id > last_id);
        RC_ASSERT(row.key == key);
        RC_ASSERT(row.value == value);
        RC_ASSERT(row.run.revision == m.facts.revision);
        RC_ASSERT(row.run.date == m.facts.date);
        RC_ASSERT(row.run.tier == m.facts.tier);
        RC_ASSERT(row.run.cpu_model == m.facts.cpu_model);
        RC_ASSERT(row.run.cores == m.facts.cores);
      }
      if (id >= 0) last_id = id;
    }
    RC_ASSERT(at == rows.size());
    // Series: one per key in key order, points in run order.
    std::map<std::string, std::vector<std::pair<std::string, double>>> series;
    for (const auto& m : model)
      for (const auto& [key, value] : m.figures) series[key].push_back({m.facts.revision, value});
    const auto got = review::history_series(rows);
    RC_ASSERT(got.size() == series.size());
    std::size_t i = 0;
    for (const auto& [key, points] : series) {
      RC_ASSERT(got[i].key == key);
      RC_ASSERT(got[i].points.size() == points.size());
      for (std::size_t p = 0; p < points.size(); ++p) {
        RC_ASSERT(got[i].points[p].revision == points[p].first);
        RC_ASSERT(got[i].points[p].value == points[p].second);
      }
      ++i;
    }
  });
  fs::remove_all(dir);
}

}  // namespace history_model_test
