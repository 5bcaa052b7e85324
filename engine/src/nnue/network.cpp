#include "nnue/network.h"

#include <cstring>

#include "file_bytes.h"

namespace stk::nnue {

namespace {

std::string show_bytes(const std::uint8_t* p, std::size_t n) {
  static const char* hex = "0123456789abcdef";
  std::string s = "\"";
  for (std::size_t i = 0; i < n; ++i) {
    if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '"' && p[i] != '\\') {
      s += char(p[i]);
    } else {
      s += "\\x";
      s += hex[p[i] >> 4];
      s += hex[p[i] & 15];
    }
  }
  return s + "\"";
}

bool fail(std::string* error, const std::string& message) {
  if (error) *error = message;
  return false;
}

}  // namespace

std::uint64_t fnv1a64(const std::uint8_t* data, std::size_t size) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (std::size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 0x100000001b3ULL;
  return h;
}

Network::Network(int hidden) : hidden_(hidden), ft_(hidden) {
  for (Bucket& b : buckets_) {
    b.l1 = AffineTransform(hidden, kL1Out);
    b.l2 = AffineTransform(kL1Out, kL2Out);
    b.out = AffineTransform(kL2Out, 1);
  }
}

bool Network::parse_header(const std::vector<std::uint8_t>& bytes, const std::string& name,
                           bool allow_trailing, NetHeader* header, std::string* error) {
  const std::size_t size = bytes.size();
  if (size < std::size_t(kHeaderSize))
    return fail(error, name + ": short file: expected at least " + std::to_string(kHeaderSize) +
                           " header bytes, actual size " + std::to_string(size) + " bytes");
  if (std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    return fail(error, name + ": field 'magic' at byte offset 0: expected \"STKHALFKA\", found " +
                           show_bytes(bytes.data(), sizeof kMagic));
  ByteReader r(bytes.data(), size);
  for (int i = 0; i < 9; ++i) r.i8();
  NetHeader h;
  struct Field {
    const char* name;
    std::uint32_t* value;
    const char* expected;
    bool (*ok)(std::uint32_t);
  };
  const Field fields[] = {
      {"version", &h.version, "1", [](std::uint32_t v) { return v == kVersion; }},
      {"features", &h.features, "22528",
       [](std::uint32_t v) { return v == std::uint32_t(kNumFeatures); }},
      {"hidden", &h.hidden, "128 or 1024", [](std::uint32_t v) { return hidden_supported(v); }},
      {"buckets", &h.buckets, "8",
       [](std::uint32_t v) { return v == std::uint32_t(kNumOutputBuckets); }},
  };
  for (const Field& f : fields) {
    std::size_t offset = r.offset();
    *f.value = r.u32();
    if (!f.ok(*f.value))
      return fail(error, name + ": field '" + f.name + "' at byte offset " +
                             std::to_string(offset) + ": expected " + f.expected + ", found " +
                             std::to_string(*f.value));
  }
  const std::uint64_t expected = net_file_size(h.hidden);
  if (size < expected)
    return fail(error, name + ": short file: expected " + std::to_string(expected) +
                           " bytes for hidden " + std::to_string(h.hidden) + ", actual size " +
                           std::to_string(size) + " bytes (data ends at byte offset " +
                           std::to_string(size) + ")");
  if (size > expected && !allow_trailing)
    return fail(error, name + ": trailing data: expected " + std::to_string(expected) +
                           " bytes for hidden " + std::to_string(h.hidden) + ", actual size " +
                           std::to_string(size) + " bytes (" + std::to_string(size - expected) +
                           " extra bytes from byte offset " + std::to_string(expected) +
                           "; allow trailing data explicitly to accept)");
  if (header) *header = h;
  return true;
}

std::unique_ptr<Network> Network::parse(const std::vector<std::uint8_t>& bytes,
                                        const std::string& name, bool allow_trailing,
                                        std::string* error) {
  NetHeader h;
  if (!parse_header(bytes, name, allow_trailing, &h, error)) return nullptr;
  auto net = std::make_unique<Network>(int(h.hidden));
  ByteReader r(bytes.data(), bytes.size());
  for (int i = 0; i < kHeaderSize; ++i) r.i8();
  net->ft_.read_parameters(r);
  for (Bucket& b : net->buckets_) {
    b.l1.read_parameters(r);
    b.l2.read_parameters(r);
    b.out.read_parameters(r);
  }
  if (r.offset() != net_file_size(h.hidden)) {  // the layer shapes and the size formula disagree
    if (error)
      *error = name + ": internal error: parameters end at byte offset " +
               std::to_string(r.offset());
    return nullptr;
  }
  net->checksum_ = fnv1a64(bytes.data(), bytes.size());
  net->source_ = name;
  return net;
}

std::unique_ptr<Network> Network::load(const std::string& path, bool allow_trailing,
                                       std::string* error) {
  std::vector<std::uint8_t> bytes;  // raw bytes, decoded by parse()
  if (!read_file_bytes(path, &bytes, error)) return nullptr;
  return parse(bytes, path, allow_trailing, error);
}

}  // namespace stk::nnue
