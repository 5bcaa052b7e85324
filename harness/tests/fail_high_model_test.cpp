// Independent models of the fail-high record file and the collection's sampling
// (docs/fail-high-predictor.md "Record file" and "Population"): an encoder of the byte layout written
// from the tables, compared with the reader on generated records and segments (and with the
// writer); the reader's rejections, each at its byte offset; the depth-aware sampling's rate and
// weights. Metamorphic: files concatenated read as their records concatenated.
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli_support.h"
#include "fail_high/collect_policy.h"
#include "fail_high/record_file.h"
#include "rc_support.h"

using namespace stk;
using namespace stk::harness::fhcollect;

namespace fh_model {

// A record as the contract's table lists it, field by field.
struct Raw {
  std::uint32_t position_id = 0, node_id = 0;
  int side = 0;
  bool whole = false, label = false, improving = false, opp_improving = false, cut = false,
       black = false;
  int depth = 1, ply = 0, gap = 0, tier = 0, ordinal = 0, legal = 0, good_captures = 0;
  int move_value = 0, fh_cuts = 0, fh_tries = 0, phase = 0, prediction = 0, weight = 1;
  int static_eval = 0;
};

void le(std::vector<unsigned char>& b, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) b.push_back(static_cast<unsigned char>((v >> (8 * i)) & 0xFF));
}

// The 32-byte header and 32-byte records, little-endian, offsets as in the tables.
void model_header(std::vector<unsigned char>& b, int depth, int full_depth, std::uint32_t seed,
                  int shard, int shards, std::uint64_t count) {
  for (char c : std::string("STKFHREC")) b.push_back(static_cast<unsigned char>(c));
  le(b, 1, 2);   // version
  le(b, 32, 2);  // record size
  le(b, std::uint64_t(depth), 2);
  le(b, std::uint64_t(full_depth), 2);
  le(b, seed, 4);
  le(b, std::uint64_t(shard), 2);
  le(b, std::uint64_t(shards), 2);
  le(b, count, 8);
}

void model_record(std::vector<unsigned char>& b, const Raw& r) {
  le(b, r.position_id, 4);
  le(b, r.node_id, 4);
  b.push_back(std::uint8_t(r.side));
  b.push_back(std::uint8_t(r.whole | r.label << 1 | r.improving << 2 | r.opp_improving << 3 |
                           r.cut << 4 | r.black << 5));
  b.push_back(std::uint8_t(r.depth));
  b.push_back(std::uint8_t(r.ply));
  le(b, std::uint64_t(r.gap), 2);
  b.push_back(std::uint8_t(r.tier));
  b.push_back(std::uint8_t(r.ordinal));
  b.push_back(std::uint8_t(r.legal));
  b.push_back(std::uint8_t(r.good_captures));
  le(b, std::uint16_t(std::int16_t(r.move_value)), 2);
  le(b, std::uint64_t(r.fh_cuts), 2);
  le(b, std::uint64_t(r.fh_tries), 2);
  b.push_back(std::uint8_t(r.phase));
  b.push_back(0);  // reserved
  le(b, std::uint64_t(r.prediction), 2);
  le(b, std::uint64_t(r.weight), 2);
  le(b, std::uint16_t(std::int16_t(r.static_eval)), 2);
}

// A valid record: whole-node records have tier 0 and ordinal 0, move records neither.
rc::Gen<Raw> gen_raw() {
  return rc::gen::exec([] {
    Raw r;
    r.position_id = *rc::gen::arbitrary<std::uint32_t>();
    r.node_id = *rc::gen::arbitrary<std::uint32_t>();
    r.side = *rc::gen::inRange(0, 2);
    r.whole = *rc::gen::arbitrary<bool>();
    r.label = *rc::gen::arbitrary<bool>();
    r.improving = *rc::gen::arbitrary<bool>();
    r.opp_improving = *rc::gen::arbitrary<bool>();
    r.cut = *rc::gen::arbitrary<bool>();
    r.black = *rc::gen::arbitrary<bool>();
    r.depth = *rc::gen::inRange(1, 256);
    r.ply = *rc::gen::inRange(0, 256);
    r.gap = *rc::gen::inRange(0, 65536);
    r.tier = r.whole ? 0 : *rc::gen::inRange(1, 5);
    r.ordinal = r.whole ? 0 : *rc::gen::inRange(1, 256);
    r.legal = *rc::gen::inRange(0, 256);
    r.good_captures = *rc::gen::inRange(0, 256);
    r.move_value = *rc::gen::element(0, -100, -300, -500, -900, -1200);
    r.fh_cuts = *rc::gen::inRange(0, 65536);
    r.fh_tries = *rc::gen::inRange(0, 65536);
    r.phase = *rc::gen::inRange(0, 25);
    r.prediction = *rc::gen::inRange(0, 65536);
    r.weight = *rc::gen::inRange(1, 65536);
    r.static_eval = *rc::gen::inRange(-32768, 32768);
    return r;
  });
}

void assert_same(const Record& got, const Raw& r, std::uint64_t offset) {
  RC_ASSERT(got.offset == offset);
  RC_ASSERT(got.position_id == r.position_id);
  RC_ASSERT(got.node_id == r.node_id);
  RC_ASSERT(int(got.in.side) == r.side);
  RC_ASSERT(got.in.whole_node == r.whole);
  RC_ASSERT(got.label == r.label);
  RC_ASSERT(got.in.improving == r.improving);
  RC_ASSERT(got.in.opp_improving == r.opp_improving);
  RC_ASSERT(got.in.cut_node == r.cut);
  RC_ASSERT(got.black == r.black);
  RC_ASSERT(got.in.depth == r.depth);
  RC_ASSERT(got.ply == r.ply);
  RC_ASSERT(got.in.gap == r.gap);
  RC_ASSERT(int(got.in.tier) == r.tier);
  RC_ASSERT(got.in.ordinal == r.ordinal);
  RC_ASSERT(got.in.legal == r.legal);
  RC_ASSERT(got.in.good_captures == r.good_captures);
  RC_ASSERT(got.in.move_value == r.move_value);
  RC_ASSERT(got.in.fh_cuts == r.fh_cuts);
  RC_ASSERT(got.in.fh_tries == r.fh_tries);
  RC_ASSERT(got.in.phase == r.phase);
  RC_ASSERT(got.prediction == r.prediction);
  RC_ASSERT(got.weight == r.weight);
  RC_ASSERT(got.static_eval == r.static_eval);
}

// The error text of parsing `bytes`, "" when it parses.
std::string parse_error(const std::vector<unsigned char>& bytes) {
  try {
    parse_records(bytes, "m.fhr");
  } catch (const harness::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace fh_model

// MODEL fhr-record-layout
// checks: harness/src/fail_high/record_file.cpp  (the .fhr byte layout read and written, segments and rejections)
// contract: docs/fail-high-predictor.md#record-file-fhr
// planted: ci/mutants/model-fhr-record-layout.patch  (the opp_improving and cut_node flag bits swapped)
TEST_CASE(
    "model: .fhr files read and write the documented byte layout and reject each malformed field at its offset",
    "[model][fail_high]") {
  using namespace fh_model;
  rc::prop("segments of generated records, concatenated", [] {
    const auto segs = *stk::test::length_between<std::vector<std::vector<Raw>>>(
        1, 6, stk::test::up_to<std::vector<Raw>>(6, gen_raw()));
    std::vector<unsigned char> file;
    std::vector<std::uint64_t> offsets;
    std::vector<std::uint64_t> header_offsets;
    std::vector<Raw> all;
    for (std::size_t s = 0; s < segs.size(); ++s) {
      header_offsets.push_back(file.size());
      model_header(file, 9, 6, std::uint32_t(1000 + s), int(s), int(segs.size()), segs[s].size());
      for (const Raw& r : segs[s]) {
        offsets.push_back(file.size());
        model_record(file, r);
        all.push_back(r);
      }
    }
    std::vector<SegmentHeader> headers;
    const std::vector<Record> got = parse_records(file, "m.fhr", &headers);
    RC_ASSERT(got.size() == all.size());
    for (std::size_t i = 0; i < all.size(); ++i) assert_same(got[i], all[i], offsets[i]);
    RC_ASSERT(headers.size() == segs.size());
    for (std::size_t s = 0; s < segs.size(); ++s) {
      RC_ASSERT(headers[s].offset == header_offsets[s]);
      RC_ASSERT(headers[s].search_depth == 9);
      RC_ASSERT(headers[s].full_depth == 6);
      RC_ASSERT(headers[s].seed == 1000 + s);
      RC_ASSERT(headers[s].shard_index == int(s));
      RC_ASSERT(headers[s].shard_count == int(segs.size()));
      RC_ASSERT(headers[s].record_count == segs[s].size());
    }
    // The writer's bytes equal the model's for one segment.
    for (const Raw& r : segs[0]) {
      Record rec;
      rec.position_id = r.position_id, rec.node_id = r.node_id;
      rec.in.side = search::fh::Side(r.side);
      rec.in.whole_node = r.whole, rec.label = r.label, rec.in.improving = r.improving;
      rec.in.opp_improving = r.opp_improving, rec.in.cut_node = r.cut, rec.black = r.black;
      rec.in.depth = r.depth, rec.ply = r.ply, rec.in.gap = r.gap;
      rec.in.tier = search::fh::Tier(r.tier), rec.in.ordinal = r.ordinal, rec.in.legal = r.legal;
      rec.in.good_captures = r.good_captures, rec.in.move_value = r.move_value;
      rec.in.fh_cuts = r.fh_cuts, rec.in.fh_tries = r.fh_tries, rec.in.phase = r.phase;
      rec.prediction = r.prediction, rec.weight = r.weight, rec.static_eval = r.static_eval;
      unsigned char bytes[kRecordSize];
      encode(rec, bytes);
      std::vector<unsigned char> expect;
      model_record(expect, r);
      RC_ASSERT(std::vector<unsigned char>(bytes, bytes + kRecordSize) == expect);
    }
  });
  rc::prop("one malformed field is refused naming its byte offset", [] {
    const auto rs = *stk::test::length_between<std::vector<Raw>>(1, 4, gen_raw());
    std::vector<unsigned char> file;
    model_header(file, 9, 6, 1, 0, 1, rs.size());
    for (const Raw& r : rs) model_record(file, r);
    RC_ASSERT(parse_error(file).empty());
    const std::size_t k = *rc::gen::inRange<std::size_t>(0, rs.size());
    const std::size_t at = 32 + 32 * k;
    const Raw& r = rs[k];
    // Each defect, with the byte the contract names.
    const int defect = *rc::gen::inRange(0, 12);
    auto bad = file;
    std::size_t offset = 0;
    switch (defect) {
      case 0: bad[at + 8] = std::uint8_t(*rc::gen::inRange(2, 256)), offset = at + 8; break;
      case 1: bad[at + 9] |= std::uint8_t(*rc::gen::element(0x40, 0x80)), offset = at + 9; break;
      case 2: bad[at + 10] = 0, offset = at + 10; break;
      case 3: bad[at + 14] = std::uint8_t(*rc::gen::inRange(5, 256)), offset = at + 14; break;
      case 4: bad[at + 25] = std::uint8_t(*rc::gen::inRange(1, 256)), offset = at + 25; break;
      case 5: bad[at + 28] = bad[at + 29] = 0, offset = at + 28; break;
      case 6:  // a whole-node record with a move tier or ordinal, or a move record without
        if (r.whole) bad[at + 15] = 1;
        else bad[at + 14] = 0;
        offset = at + 14;
        break;
      case 7: bad[0] = 'X', offset = 0; break;
      case 8: bad[8] = 2, offset = 8; break;
      case 9: bad[10] = 31, offset = 10; break;
      case 10: bad[24] = std::uint8_t(rs.size() + 1), offset = 24; break;  // count past the end
      case 11:  // one byte short: the declared count runs past the end (named at the count)
        bad.resize(bad.size() - 1), offset = 24;
        break;
    }
    const std::string err = parse_error(bad);
    RC_ASSERT(!err.empty());
    RC_ASSERT(err.rfind("m.fhr: byte " + std::to_string(offset) + ":", 0) == 0);
  });
  SECTION("concatenated files read as their records concatenated (the writer's files)") {
    const auto dir = test::scratch_dir("fh-model-concat");
    std::vector<unsigned char> joined;
    std::size_t total = 0;
    for (int s = 0; s < 3; ++s) {
      const std::string path = (dir / ("s" + std::to_string(s) + ".fhr")).string();
      SegmentHeader h;
      h.search_depth = 8, h.full_depth = 5, h.seed = 7, h.shard_index = s, h.shard_count = 3;
      RecordWriter w(path, h);
      for (int i = 0; i <= s; ++i) {
        Record r;
        r.position_id = std::uint32_t(s), r.node_id = std::uint32_t(i), r.in.depth = 3,
        r.in.whole_node = true;
        w.write(r);
      }
      w.close();
      const std::string text = test::read_file(path);
      CHECK(text.size() == 32 + 32 * std::size_t(s + 1));
      joined.insert(joined.end(), text.begin(), text.end());
      total += std::size_t(s + 1);
    }
    const auto got = parse_records(joined, "joined.fhr");
    REQUIRE(got.size() == total);
    CHECK(got[5].position_id == 2);
    CHECK(got[5].node_id == 2);
  }
}

// MODEL fh-collect-sampling
// checks: harness/src/fail_high/collect_policy.h  (depth-aware node sampling and the records' weights)
// contract: docs/fail-high-predictor.md#population-gate-1
// planted: ci/mutants/model-fh-collect-sampling.patch  (a node kept on two draws of w instead of one)
TEST_CASE(
    "model: the collection keeps a node at depth d below K with probability 2^-(K-d) and weighs it 2^(K-d)",
    "[model][fail_high]") {
  SECTION("weights, for every K and depth") {
    for (int k = 1; k <= 12; ++k)
      for (int d = 1; d <= 16; ++d)
        CHECK(CollectPolicy::weight_at(d, k) == (d >= k ? 1 : 1 << (k - d)));
  }
  rc::prop("the kept share is the documented probability, the weighted count the nodes seen", [] {
    const int k = *rc::gen::inRange(3, 9);
    const int below = *rc::gen::inRange(0, 4);  // depth k - below: probability 2^-below
    const int d = std::max(1, k - below);
    const double p = std::ldexp(1.0, -(k - d));
    CollectPolicy c;
    c.full_depth = k;
    c.start_position(*rc::gen::inRange<std::uint32_t>(0, 1000),
                     *rc::gen::arbitrary<std::uint32_t>());
    const int n = 6000;
    long expect_id = 0;
    int kept = 0;
    for (int i = 0; i < n; ++i) {
      const long id = c.fh_begin_node(d);
      if (id >= 0) {
        RC_ASSERT(id == expect_id);  // logged nodes numbered 0, 1, 2, ...
        ++expect_id, ++kept;
      }
    }
    RC_ASSERT(c.nodes_seen == std::uint64_t(n));
    RC_ASSERT(c.nodes_logged == std::uint64_t(kept));
    // Binomial(n, p): 5 standard deviations.
    const double sd = std::sqrt(n * p * (1 - p));
    RC_ASSERT(std::abs(kept - n * p) <= 5 * sd + 1e-9);
    // Kept nodes times their weight estimate the nodes seen (inverse probability).
    const double estimate = double(kept) * CollectPolicy::weight_at(d, k);
    RC_ASSERT(std::abs(estimate - n) <= 5 * sd / p + 1e-9);
  });
  SECTION("the stream depends only on the seed and the position") {
    CollectPolicy a, b;
    a.full_depth = b.full_depth = 8;
    a.start_position(5, 42);
    std::vector<long> first;
    for (int i = 0; i < 200; ++i) first.push_back(a.fh_begin_node(3));
    b.start_position(9, 42);  // another position in between
    for (int i = 0; i < 50; ++i) b.fh_begin_node(2);
    b.start_position(5, 42);
    std::vector<long> again;
    for (int i = 0; i < 200; ++i) again.push_back(b.fh_begin_node(3));
    CHECK(first == again);
  }
}
