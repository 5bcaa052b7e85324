// Fail-high predictor: the integer logistic model the search consults at null-window nodes
// (contract: docs/fail-high-predictor.md). Features, inference and the model file are
// integer-exact so that the Python reference (stkref.fhmodel) reproduces every prediction.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace stk::search::fh {

enum Side : std::uint8_t { kAlpha = 0, kBeta = 1 };
enum Tier : std::uint8_t {
  kNoMove = 0,
  kTableMove = 1,
  kCountermove = 2,
  kQuiet = 3,
  kLosingCapture = 4
};

constexpr int kFeatureCount = 28;
constexpr int kLegalLg = 17;  // the feature index of legal_lg
constexpr int kLutSize = 2048;
extern const std::array<const char*, kFeatureCount> kFeatureNames;

// The raw quantities of one decision: a record's fields without its identifiers and label.
struct Inputs {
  Side side = kAlpha;
  bool whole_node = false;
  bool improving = false, opp_improving = false, cut_node = false;
  int depth = 1, gap = 0;
  Tier tier = kNoMove;
  int ordinal = 0, legal = 0, good_captures = 0, move_value = 0;
  int fh_cuts = 0, fh_tries = 0;
  int phase = 0;
};

// Piecewise-linear log2 in 1/256 units, exact in integers (v >= 1).
constexpr int lg(unsigned v) {
  int b = 31 - __builtin_clz(v);
  return 256 * b + int(((std::uint64_t(v) << 8) >> b) & 255);
}

void features(const Inputs& in, std::int32_t out[kFeatureCount]);

struct ModelError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Model {
 public:
  // P(fail high) x 65536, clamped to 65535.
  std::uint16_t predict(const Inputs& in) const;
  // Parses a model text; throws ModelError "source:line: reason". Nothing is modified on error.
  static Model parse(std::string_view text, const std::string& source);
  static Model load_file(const std::string& path);
  // The model compiled into the engine (engine/src/search/fhmodel_default.txt).
  static const Model& builtin();

  int shift() const { return shift_; }
  std::uint16_t lut_at(int i) const { return lut_[std::size_t(i)]; }
  const std::array<std::int32_t, kFeatureCount + 1>& weights(Side s) const { return w_[s]; }

 private:
  int shift_ = 18;
  std::array<std::int32_t, kFeatureCount + 1> w_[2]{};  // [side][0] is the bias
  std::vector<std::uint16_t> lut_;
};

// A threshold T in 1/10000 (UCI units) as the least 1/65536 value p with p * 10000 >= T * 65536,
// so that `p < threshold_p16(T)` is exactly p/65536 < T/10000 (stktrain.calibration compares so).
constexpr int threshold_p16(int per10000) {
  return int((std::int64_t(per10000) * 65536 + 9999) / 10000);
}

// How the search uses the predictor (UCI options FHPredictor, FHLmrTier1/2, FHStaticNull).
struct Settings {
  bool enabled = false;
  const Model* model = nullptr;       // nullptr: the built-in model
  int lmr_tier1 = 20, lmr_tier2 = 5;  // 1/10000: p below adds one / two plies of reduction
  int static_null = 9900;             // 1/10000: p at or above cuts at depth <= kStaticNullDepth
  static constexpr int kStaticNullDepth = 7;

  const Model& active() const { return model ? *model : Model::builtin(); }
};

}  // namespace stk::search::fh
