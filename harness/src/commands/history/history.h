// reports/history.sqlite: the headline figures of every `stk-harness all` run, with the git
// revision, date, tier and machine, so the review page can plot each figure across revisions.
#pragma once

#include <string>
#include <vector>

#include "commands/review/review_inputs.h"

namespace stk::harness::review {

struct RunFacts {
  std::string revision, date, tier, cpu_model;
  int cores = 0;
};

// This machine and build, now (UTC).
RunFacts current_run_facts(const std::string& tier);

// Appends one run and its figures in one transaction (BEGIN IMMEDIATE, waiting up to 60 s for
// other writers). Throws InputError naming the database when it is not a usable SQLite database
// (corrupt, another kind of file, unwritable); nothing is appended then. Returns the run's id.
long long append_history(const std::string& db, const RunFacts& run,
                         const std::vector<Figure>& figures);

struct HistoryRow {
  long long run_id;
  RunFacts run;
  std::string key;
  double value;
};

// Every figure of every run, by run then key. Throws InputError naming the database as above.
std::vector<HistoryRow> read_history(const std::string& db);

// One figure across runs (oldest first).
struct Series {
  std::string key;
  struct Point {
    std::string revision, date, tier;
    double value;
  };
  std::vector<Point> points;
};

// The rows as one series per figure key (runs in order), for the page.
std::vector<Series> history_series(const std::vector<HistoryRow>& rows);

}  // namespace stk::harness::review
