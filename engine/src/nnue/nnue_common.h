// Constants of the STKHALFKA architecture (SPEC-NNUE.md) and small helpers shared by the layers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

namespace stk::nnue {

constexpr int kNumFeatures = 22528;  // 32 king buckets x 11 kinds x 64 squares
constexpr int kNumKingBuckets = 32;
constexpr int kNumKinds = 11;
constexpr int kNumOutputBuckets = 8;  // also the PSQT width
constexpr int kL1Out = 16;
constexpr int kL2Out = 32;
constexpr int kMaxHidden = 1024;
constexpr int kHeaderSize = 25;
constexpr char kMagic[9] = {'S', 'T', 'K', 'H', 'A', 'L', 'F', 'K', 'A'};
constexpr std::uint32_t kVersion = 1;

constexpr bool hidden_supported(long long h) { return h == 128 || h == 1024; }

// Exact size of a file with hidden width h (the spec's formula).
constexpr std::uint64_t net_file_size(std::uint64_t h) {
  return kHeaderSize + 2 * kNumFeatures * h + 2 * h + 4ull * kNumFeatures * kNumOutputBuckets +
         kNumOutputBuckets * (16 * h + 64 + 512 + 128 + 32 + 4);
}
static_assert(net_file_size(1024) == 46'997'305);
static_assert(net_file_size(128) == 6'510'649);

// Which implementation of the integer kernels to run. Both compute the same integers; the
// scalar one follows the spec line by line and is the reference the SIMD one must match.
enum class Simd { Scalar, Avx2 };
#if defined(__AVX2__)
constexpr bool kHasAvx2 = true;
constexpr Simd kBestSimd = Simd::Avx2;
#else
constexpr bool kHasAvx2 = false;
constexpr Simd kBestSimd = Simd::Scalar;
#endif

// One evaluation and its parts, side-to-move relative (what `stk eval` prints).
struct EvalParts {
  int eval = 0;
  int bucket = 0;
  int psqt = 0;
  int positional = 0;
  bool operator==(const EvalParts&) const = default;
};

// 64-byte aligned heap array (SIMD loads of weight rows and accumulators).
template <typename T>
class AlignedArray {
 public:
  AlignedArray() = default;
  explicit AlignedArray(std::size_t n) : size_(n) {
    std::size_t bytes = (n * sizeof(T) + 63) / 64 * 64;
    data_.reset(static_cast<T*>(std::aligned_alloc(64, bytes ? bytes : 64)));
    if (!data_) throw std::bad_alloc();
    for (std::size_t i = 0; i < n; ++i) data_[i] = T();
  }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  std::size_t size() const { return size_; }

 private:
  struct Free {
    void operator()(T* p) const { std::free(p); }
  };
  std::unique_ptr<T[], Free> data_;
  std::size_t size_ = 0;
};

// Modular (two's-complement wrap-around) arithmetic without signed-overflow UB.
inline std::int16_t add_wrap16(std::int16_t a, std::int16_t b) {
  return std::int16_t(std::uint16_t(std::uint16_t(a) + std::uint16_t(b)));
}
inline std::int16_t sub_wrap16(std::int16_t a, std::int16_t b) {
  return std::int16_t(std::uint16_t(std::uint16_t(a) - std::uint16_t(b)));
}
inline std::int32_t add_wrap32(std::int32_t a, std::int32_t b) {
  return std::int32_t(std::uint32_t(a) + std::uint32_t(b));
}
inline std::int32_t sub_wrap32(std::int32_t a, std::int32_t b) {
  return std::int32_t(std::uint32_t(a) - std::uint32_t(b));
}

}  // namespace stk::nnue

namespace stk::nnue {

// Explicit little-endian decoding: bytes are assembled by shifting, never by reinterpreting the
// file buffer, so the result does not depend on host byte order. The caller has checked the size.
class ByteReader {
 public:
  ByteReader(const std::uint8_t* data, std::size_t size) : p_(data), size_(size) {}
  std::uint32_t u32() {
    std::uint32_t v = std::uint32_t(p_[pos_]) | std::uint32_t(p_[pos_ + 1]) << 8 |
                      std::uint32_t(p_[pos_ + 2]) << 16 | std::uint32_t(p_[pos_ + 3]) << 24;
    pos_ += 4;
    return v;
  }
  std::int32_t i32() { return std::int32_t(u32()); }  // modular conversion (C++20)
  std::int16_t i16() {
    std::uint16_t v = std::uint16_t(p_[pos_] | p_[pos_ + 1] << 8);
    pos_ += 2;
    return std::int16_t(v);
  }
  std::int8_t i8() { return std::int8_t(p_[pos_++]); }
  std::size_t offset() const { return pos_; }
  std::size_t size() const { return size_; }

 private:
  const std::uint8_t* p_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

}  // namespace stk::nnue
