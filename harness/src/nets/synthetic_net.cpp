#include "nets/synthetic_net.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <tuple>

#include <fmt/format.h>
#include <unistd.h>

#include "cli/cli.h"
#include "io/output_file.h"
#include "common/splitmix.h"
#include "nnue/features.h"

namespace stk::harness {

namespace {

class Writer {
 public:
  explicit Writer(std::size_t reserve) { b_.reserve(reserve); }
  void u8(std::uint8_t v) { b_.push_back(v); }
  void i8(int v) { b_.push_back(std::uint8_t(std::int8_t(v))); }
  void i16(int v) {
    auto u = std::uint16_t(std::int16_t(v));
    b_.push_back(std::uint8_t(u)), b_.push_back(std::uint8_t(u >> 8));
  }
  void u32(std::uint32_t v) {
    for (int k = 0; k < 4; ++k) b_.push_back(std::uint8_t(v >> (8 * k)));
  }
  void i32(std::int32_t v) { u32(std::uint32_t(v)); }
  std::vector<std::uint8_t>& bytes() { return b_; }

 private:
  std::vector<std::uint8_t> b_;
};

}  // namespace

std::vector<std::uint8_t> make_synthetic_net(int hidden, std::uint64_t seed, NetStyle style) {
  using namespace nnue;
  if (!hidden_supported(hidden))
    throw UsageError("hidden must be 128 or 1024, got " + std::to_string(hidden));
  SplitMix rng(seed ^ (std::uint64_t(hidden) << 32));
  Writer w(net_file_size(std::uint64_t(hidden)));
  for (char c : kMagic) w.u8(std::uint8_t(c));
  w.u32(kVersion);
  w.u32(kNumFeatures);
  w.u32(std::uint32_t(hidden));
  w.u32(kNumOutputBuckets);
  if (style == NetStyle::Extreme) {
    // Raw random bytes are valid values of every field type; the header above stays valid.
    const std::size_t body = net_file_size(std::uint64_t(hidden)) - kHeaderSize;
    for (std::size_t i = 0; i < body; i += 8) {
      std::uint64_t r = rng.next();
      for (std::size_t k = 0; k < 8 && i + k < body; ++k) w.u8(std::uint8_t(r >> (8 * k)));
    }
    return std::move(w.bytes());
  }
  // FT rows: four values per random draw keeps generation of the 47 MB net fast.
  const std::size_t ft_values = std::size_t(kNumFeatures) * std::size_t(hidden);
  for (std::size_t i = 0; i < ft_values; i += 4) {
    std::uint64_t r = rng.next();
    for (int k = 0; k < 4; ++k) w.i16(int((r >> (16 * k)) & 0xFFFF) % 25 - 12);
  }
  for (int j = 0; j < hidden; ++j) w.i16(rng.uniform(20, 100));
  static constexpr int kKindValue[11] = {100, 320, 330, 500, 950, -100, -320, -330, -500, -950, 0};
  for (int f = 0; f < kNumFeatures; ++f) {
    int kind = (f / 64) % kNumKinds;
    for (int b = 0; b < kNumOutputBuckets; ++b) w.i32(kKindValue[kind] * 8 + rng.uniform(-64, 64));
  }
  // Fan-in scaled dense weights: the sums' spread over rows is about 3000, i.e. s >> 6 about 47.
  const int k1 = hidden == 1024 ? 4 : 13;
  for (int b = 0; b < kNumOutputBuckets; ++b) {
    for (int i = 0; i < kL1Out * hidden; ++i) w.i8(rng.uniform(-k1, k1));
    for (int i = 0; i < kL1Out; ++i) w.i32(rng.uniform(2000, 6000));
    for (int i = 0; i < kL2Out * kL1Out; ++i) w.i8(rng.uniform(-18, 18));
    for (int i = 0; i < kL2Out; ++i) w.i32(rng.uniform(2000, 6000));
    for (int i = 0; i < kL2Out; ++i) w.i8(rng.uniform(-10, 10));
    w.i32(rng.uniform(-500, 500));
  }
  return std::move(w.bytes());
}

std::shared_ptr<const std::vector<std::uint8_t>> synthetic_net_bytes(int hidden, std::uint64_t seed,
                                                                     NetStyle style) {
  static std::mutex mutex;
  static std::map<std::tuple<int, std::uint64_t, NetStyle>,
                  std::shared_ptr<const std::vector<std::uint8_t>>>
      cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = cache[{hidden, seed, style}];
  if (!slot)
    slot = std::make_shared<const std::vector<std::uint8_t>>(
        make_synthetic_net(hidden, seed, style));
  return slot;
}

std::shared_ptr<const nnue::Network> synthetic_network(int hidden, std::uint64_t seed,
                                                       NetStyle style) {
  static std::mutex mutex;
  static std::map<std::tuple<int, std::uint64_t, NetStyle>, std::shared_ptr<const nnue::Network>>
      cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = cache[{hidden, seed, style}];
  if (!slot) {
    std::string error;
    slot = nnue::Network::parse(*synthetic_net_bytes(hidden, seed, style),
                                fmt::format("synthetic-{}-h{}-seed{}",
                                            style == NetStyle::Typical ? "typical" : "extreme",
                                            hidden, seed),
                                false, &error);
    if (!slot) throw InputError("synthetic net rejected by the loader: " + error);
  }
  return slot;
}

std::string synthetic_net_file(int hidden, std::uint64_t seed) {
  static std::mutex mutex;
  static std::map<std::pair<int, std::uint64_t>, std::string> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto& path = cache[{hidden, seed}];
  if (path.empty()) {
    namespace fs = std::filesystem;
    // Removed at exit: the H=1024 file is 47 MB and must not pile up in the temp folder.
    struct RemoveAtExit {
      fs::path dir;
      ~RemoveAtExit() {
        std::error_code ec;
        fs::remove_all(dir, ec);
      }
    };
    static RemoveAtExit temp{fs::temp_directory_path() / fmt::format("stk-nets-{}", ::getpid())};
    const fs::path& dir = temp.dir;
    fs::create_directories(dir);
    fs::path p = dir / fmt::format("synthetic-h{}-seed{}.nnue", hidden, seed);
    auto bytes = synthetic_net_bytes(hidden, seed);
    io::replace_file(p.string(),
                     std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()));
    path = p.string();
  }
  return path;
}

ActivationStats measure_activations(const nnue::Network& net,
                                    const std::vector<std::string>& fens) {
  using namespace nnue;
  ActivationStats st;
  bool first = true;
  for (const std::string& fen : fens) {
    Position pos;
    if (auto err = pos.set(fen)) throw InputError("bad FEN '" + fen + "': " + *err);
    alignas(64) std::int16_t acc[2][kMaxHidden];
    alignas(32) std::int32_t psqt[2][kNumOutputBuckets];
    for (Color c : {WHITE, BLACK}) {
      int features[kMaxActive];
      int n = append_active_features(pos, c, features);
      net.transformer().refresh<Simd::Scalar>(features, n, acc[c], psqt[c]);
      for (int j = 0; j < net.hidden(); ++j) st.acc_in_range += acc[c][j] >= 0 && acc[c][j] <= 127;
      st.acc_lanes += std::uint64_t(net.hidden());
    }
    Color us = pos.side_to_move();
    int b = output_bucket(pos);
    alignas(64) std::uint8_t input[kMaxHidden];
    alignas(64) std::int32_t s1[kL1Out], s2[kL2Out];
    alignas(64) std::uint8_t h1[32] = {}, h2[kL2Out];
    pairwise_product<Simd::Scalar>(acc[us], net.hidden(), input);
    pairwise_product<Simd::Scalar>(acc[~us], net.hidden(), input + net.hidden() / 2);
    net.bucket(b).l1.propagate<Simd::Scalar>(input, s1);
    clipped_relu(s1, kL1Out, h1);
    net.bucket(b).l2.propagate<Simd::Scalar>(h1, s2);
    clipped_relu(s2, kL2Out, h2);
    for (int i = 0; i < kL1Out; ++i) st.l1_inside += h1[i] > 0 && h1[i] < 127;
    for (int i = 0; i < kL2Out; ++i) st.l2_inside += h2[i] > 0 && h2[i] < 127;
    st.l1_units += kL1Out;
    st.l2_units += kL2Out;
    int e = net.forward<Simd::Scalar>(acc[us], acc[~us], psqt[us], psqt[~us], b).eval;
    st.min_eval = first ? e : std::min(st.min_eval, e);
    st.max_eval = first ? e : std::max(st.max_eval, e);
    first = false;
  }
  return st;
}

std::string ActivationStats::describe() const {
  auto pct = [](std::uint64_t a, std::uint64_t b) {
    return b ? 100.0 * double(a) / double(b) : 0.0;
  };
  return fmt::format(
      "accumulator lanes in 0..127: {:.1f}%; hidden-1 units strictly inside (0,127): {:.1f}%; "
      "hidden-2: {:.1f}%; eval range {}..{} cp",
      pct(acc_in_range, acc_lanes), pct(l1_inside, l1_units), pct(l2_inside, l2_units), min_eval,
      max_eval);
}

}  // namespace stk::harness
