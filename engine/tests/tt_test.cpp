// The transposition table's own rules: hashfull counts this search's entries in the first 1000
// slots, store keeps or replaces by depth, generation and bound, and a refused resize keeps the
// table. (ci/mutation.sh found hashfull mutants that no test saw: `n = 1`, `>> 1`, `n*1000-total`.)
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

#include "search/tt.h"

using namespace stk;
using namespace stk::search;

namespace {

// The smallest key whose slot is `i`: slot(key) = key * size / 2^64.
Key key_for_slot(const TranspositionTable& tt, std::size_t i, std::size_t size) {
  const __uint128_t k = ((__uint128_t(i) << 64) + size - 1) / size;
  const Key key = Key(k);
  REQUIRE(tt.slot(key) == i);
  return key;
}

constexpr std::size_t kSlotsPerMb = 1024 * 1024 / sizeof(TTEntry);

}  // namespace

TEST_CASE("tt: hashfull is the permille of the first 1000 slots written in this search",
          "[tt][search]") {
  TranspositionTable tt;
  REQUIRE(tt.resize(1));
  CHECK(tt.hashfull() == 0);
  tt.new_search();  // generation 1: an entry's generation must be read as gen_bound >> 2
  const Move m(SQ_E2, SQ_E4);
  for (std::size_t i = 0; i < 500; ++i)
    tt.store(key_for_slot(tt, i, kSlotsPerMb), m, 10, 5, 4, i % 3 == 0 ? BOUND_EXACT : BOUND_LOWER);
  CHECK(tt.hashfull() == 500);
  for (std::size_t i = 500; i < 1000; ++i)
    tt.store(key_for_slot(tt, i, kSlotsPerMb), m, 10, 5, 4, BOUND_UPPER);
  CHECK(tt.hashfull() == 1000);
  tt.store(key_for_slot(tt, 1000, kSlotsPerMb), m, 10, 5, 4, BOUND_EXACT);  // past the sample
  CHECK(tt.hashfull() == 1000);
  // A new search: the old entries are not this search's.
  tt.new_search();
  CHECK(tt.hashfull() == 0);
  tt.store(key_for_slot(tt, 7, kSlotsPerMb), m, 10, 5, 4, BOUND_EXACT);
  CHECK(tt.hashfull() == 1);
  tt.clear();
  CHECK(tt.hashfull() == 0);
}

TEST_CASE("tt: store keeps a deeper entry of this search and replaces an older one",
          "[tt][search]") {
  TranspositionTable tt;
  REQUIRE(tt.resize(1));
  const Key a = key_for_slot(tt, 3, kSlotsPerMb), b = a + 1;  // one slot, two positions
  REQUIRE(tt.slot(b) == tt.slot(a));
  const Move m(SQ_G1, SQ_F3);
  tt.store(a, m, 30, 0, 12, BOUND_LOWER);
  tt.store(b, m, 40, 0, 5, BOUND_LOWER);  // shallower, same search, not exact: a stays
  REQUIRE(tt.probe(a) != nullptr);
  CHECK(tt.probe(a)->score == 30);
  CHECK(tt.probe(b) == nullptr);
  tt.store(b, m, 40, 0, 5, BOUND_EXACT);  // an exact bound replaces it
  CHECK(tt.probe(a) == nullptr);
  REQUIRE(tt.probe(b) != nullptr);
  CHECK(tt.probe(b)->score == 40);
  tt.store(a, m, 30, 0, 12, BOUND_LOWER);
  tt.new_search();
  tt.store(b, m, 41, 0, 1, BOUND_UPPER);  // the deeper entry is an older search's: replaced
  REQUIRE(tt.probe(b) != nullptr);
  CHECK(tt.probe(b)->score == 41);
  CHECK(int(tt.probe(b)->gen_bound >> 2) == tt.generation());
  // The same position, much shallower and not exact: the deeper entry stays.
  tt.store(b, m, 50, 0, 20, BOUND_LOWER);
  tt.store(b, Move::none(), 60, 0, 2, BOUND_LOWER);
  CHECK(tt.probe(b)->score == 50);
  CHECK(tt.probe(b)->move == m.raw());
}

TEST_CASE("tt: a resize that cannot be had keeps the table and its entries", "[tt][search]") {
  TranspositionTable tt;
  REQUIRE(tt.resize(1));
  const Key k = key_for_slot(tt, 9, kSlotsPerMb);
  tt.store(k, Move(SQ_D2, SQ_D4), 25, 0, 6, BOUND_EXACT);
  CHECK_FALSE(tt.resize(std::numeric_limits<std::size_t>::max() / (1024 * 1024)));
  REQUIRE(tt.probe(k) != nullptr);
  CHECK(tt.probe(k)->score == 25);
}
