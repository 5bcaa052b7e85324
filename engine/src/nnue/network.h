// The STKHALFKA network, composed in one place: feature transformer -> pairwise product ->
// per output bucket: affine H->16 -> clipped relu -> affine 16->32 -> clipped relu -> affine 32->1.
// The network owns every layer's parameters; forward() owns the activation buffers (on the stack).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nnue/layers/affine_transform.h"
#include "nnue/layers/clipped_relu.h"
#include "nnue/layers/feature_transformer.h"
#include "nnue/layers/pairwise_product.h"
#include "nnue/nnue_common.h"

namespace stk::nnue {

struct NetHeader {
  std::uint32_t version = 0, features = 0, hidden = 0, buckets = 0;
};

class Network {
 public:
  struct Bucket {
    AffineTransform l1, l2, out;
  };

  explicit Network(int hidden);

  // Parses a whole file image. Returns the network, or null with *error naming the file, the
  // field, its byte offset and the value found (or expected vs actual size). Never touches any
  // other network: callers swap the result in only on success.
  static std::unique_ptr<Network> parse(const std::vector<std::uint8_t>& bytes,
                                        const std::string& name, bool allow_trailing,
                                        std::string* error);
  // Reads and parses a file (same contract as parse()).
  static std::unique_ptr<Network> load(const std::string& path, bool allow_trailing,
                                       std::string* error);
  // Header fields only (for reports); false with *error as parse() would say.
  static bool parse_header(const std::vector<std::uint8_t>& bytes, const std::string& name,
                           bool allow_trailing, NetHeader* header, std::string* error);

  int hidden() const { return hidden_; }
  const FeatureTransformer& transformer() const { return ft_; }
  const Bucket& bucket(int b) const { return buckets_[std::size_t(b)]; }
  // FNV-1a 64 of the file bytes this network was parsed from (identifies the net in reports).
  std::uint64_t checksum() const { return checksum_; }
  const std::string& source() const { return source_; }

  // Everything after the accumulators: transform (stm first), three dense layers, PSQT.
  template <Simd S>
  EvalParts forward(const std::int16_t* acc_stm, const std::int16_t* acc_opp,
                    const std::int32_t* psqt_stm, const std::int32_t* psqt_opp, int bucket) const {
    alignas(64) std::uint8_t input[kMaxHidden];
    alignas(64) std::int32_t s1[kL1Out];
    alignas(64) std::uint8_t h1[32] = {};  // padded to 32 inputs with zeros
    alignas(64) std::int32_t s2[kL2Out];
    alignas(64) std::uint8_t h2[kL2Out];
    alignas(16)
        std::int32_t s3[4];  // one output; sized so the 4-row kernel path is visibly in bounds
    const Bucket& layers = buckets_[std::size_t(bucket)];
    pairwise_product<S>(acc_stm, hidden_, input);
    pairwise_product<S>(acc_opp, hidden_, input + hidden_ / 2);
    layers.l1.propagate<S>(input, s1);
    clipped_relu(s1, kL1Out, h1);
    layers.l2.propagate<S>(h1, s2);
    clipped_relu(s2, kL2Out, h2);
    layers.out.propagate<S>(h2, s3);
    EvalParts e;
    e.bucket = bucket;
    e.positional = s3[0] >> 4;
    e.psqt = int((std::int64_t(psqt_stm[bucket]) - std::int64_t(psqt_opp[bucket])) >> 4);
    e.eval = e.positional + e.psqt;
    return e;
  }

 private:
  int hidden_;
  FeatureTransformer ft_;
  std::array<Bucket, kNumOutputBuckets> buckets_;
  std::uint64_t checksum_ = 0;
  std::string source_;
};

std::uint64_t fnv1a64(const std::uint8_t* data, std::size_t size);

}  // namespace stk::nnue
