// Net-file target: nnue::Network::parse (every header field, exact size) and Searcher::load_network
// (the file path and the transactional swap UCI's EvalFile uses). A valid H=128 file is 6.5 MB, so
// random bytes only ever reach the header; the input therefore has two modes, by its first byte:
//   even: raw mode, the rest of the input is the whole file (header fields, short files);
//   odd:  patch mode, the rest edits a valid synthetic H=128 image (bit 1: typical or extreme
//         weights; bit 2: allow trailing data; bit 3: the next two bytes are a signed size change),
//         then patches of [region, offset, length, bytes] (region 0: header, 1: the dense layers
//         at the end, else anywhere), so mutations reach the weights and the parsed net is used.
#include <string>

#include "nets/synthetic_net.h"
#include "fuzz_checks.h"
#include "movegen.h"
#include "nnue/accumulator.h"
#include "nnue/network.h"
#include "search/search.h"

namespace stk::fuzz {

namespace {

const char* const kFens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
};

// A parsed net: scalar and SIMD refresh agree, and an incremental stack along a few moves agrees
// with a scalar refresh (the modular int16/int32 sums make any weights legal).
void use_network(const nnue::Network& net) {
  for (const char* fen : kFens) {
    Position pos;
    pos.set(fen);
    nnue::AccumulatorStack stack;
    stack.reset(pos, net);
    for (int ply = 0;; ++ply) {
      const nnue::EvalParts scalar = nnue::evaluate_refresh<nnue::Simd::Scalar>(net, pos);
      if constexpr (nnue::kHasAvx2)
        require(nnue::evaluate_refresh<nnue::Simd::Avx2>(net, pos) == scalar,
                "SIMD refresh != scalar at " + pos.fen());
      require(stack.evaluate(pos) == scalar, "incremental eval != scalar refresh at " + pos.fen());
      MoveList moves(pos);
      if (ply == 3 || moves.size() == 0) break;
      pos.make_move(moves.begin()[moves.size() / 2].move);
      stack.push(pos.state().dirty);
    }
  }
}

bool check_raw(const std::vector<std::uint8_t>& bytes, bool allow_trailing) {
  static const std::shared_ptr<const nnue::Network> sentinel = harness::synthetic_network(128);
  static search::Searcher engine(search::Options{1, true, nullptr});
  engine.set_network(sentinel);
  const std::string path = scratch_file("fuzz.nnue", std::string(bytes.begin(), bytes.end()));
  std::string error, parse_error;
  const bool loaded = engine.load_network(path, allow_trailing, &error);
  const bool parsed = nnue::Network::parse(bytes, path, allow_trailing, &parse_error) != nullptr;
  require(loaded == parsed && error == parse_error,
          "load_network and parse disagree: '" + error + "' vs '" + parse_error + "'");
  if (!loaded) {
    require(error.rfind(path + ": ", 0) == 0, "error does not name the file: " + error);
    require(engine.network() == sentinel, "a failed load replaced the engine's network");
  } else {
    use_network(*engine.network());
  }
  engine.set_network(nullptr);
  return loaded;
}

bool check_patched(const std::uint8_t* data, std::size_t size) {
  const auto style = data[0] & 2 ? harness::NetStyle::Extreme : harness::NetStyle::Typical;
  const bool allow_trailing = data[0] & 4;
  std::vector<std::uint8_t> bytes = *harness::synthetic_net_bytes(128, harness::kDefaultNetSeed,
                                                                  style);
  std::size_t i = 1;
  auto next = [&]() -> unsigned { return i < size ? data[i++] : 0; };
  if (data[0] & 8) {
    const int delta = std::int16_t(next() | next() << 8);
    bytes.resize(std::size_t(std::max<long long>(0, (long long)bytes.size() + delta)));
  }
  while (i < size && !bytes.empty()) {
    const unsigned region = next();
    const std::size_t raw = next() | next() << 8 | next() << 16;
    const std::size_t at = region == 0   ? raw % nnue::kHeaderSize
                           : region == 1 ? bytes.size() - 1 -
                                               raw % std::min<std::size_t>(bytes.size(), 1 << 15)
                                         : raw * 397 % bytes.size();
    for (unsigned n = next(), k = 0; k < n && i < size; ++k)
      if (at + k < bytes.size()) bytes[at + k] = std::uint8_t(next());
  }
  std::string error;
  nnue::NetHeader header;
  const bool header_ok = nnue::Network::parse_header(bytes, "fuzz.nnue", allow_trailing, &header,
                                                     &error);
  const auto net = nnue::Network::parse(bytes, "fuzz.nnue", allow_trailing, &error);
  require(header_ok == (net != nullptr), "parse_header and parse disagree: " + error);
  if (!net) {
    require(error.rfind("fuzz.nnue: ", 0) == 0, "error does not name the file: " + error);
    return false;
  }
  require(net->hidden() == int(header.hidden) && bytes.size() >= nnue::net_file_size(header.hidden),
          "parsed net disagrees with its header");
  use_network(*net);
  return true;
}

}  // namespace

bool check_netfile(const std::uint8_t* data, std::size_t size) {
  if (size > 0 && (data[0] & 1)) return check_patched(data, size);
  return check_raw(std::vector<std::uint8_t>(data + (size > 0), data + size),
                   size > 0 && (data[0] & 2));
}

}  // namespace stk::fuzz
