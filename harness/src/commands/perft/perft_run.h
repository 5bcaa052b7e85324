// The perft command's run: for each position of this shard, one count check per golden depth
// and one make/unmake invariants walk, each in a child process with a time limit.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "commands/perft/perft_epd.h"
#include "commands/perft/perft_settings.h"
#include "report/junit.h"
#include "uci_client/uci_process.h"

namespace stk::harness::perft_harness {

// One count check as the figures and the Markdown table list it.
struct CountRow {
  std::string id, fen;
  int depth = 0;
  std::uint64_t expected = 0;
  std::optional<std::uint64_t> actual;  // none when the child crashed or hung
  std::string crashed;                  // the child's fate when it did
};

struct RunTotals {
  std::vector<CountRow> rows;
  std::uint64_t total_nodes = 0;
  double total_time = 0;  // of the count checks that answered
  int failures = 0;
};

// Runs every check of the shard; the testcases go to `suite` and suite.time_s is set.
// `reference` (may be null) bisects a count mismatch.
RunTotals run_checks(const PerftSettings& s, const std::vector<PerftEntry>& entries,
                     UciProcess* reference, junit::TestSuite& suite);

}  // namespace stk::harness::perft_harness
