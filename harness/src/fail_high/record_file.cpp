#include "fail_high/record_file.h"

#include <cstring>

#include "cli/cli.h"
#include "io/input_file.h"
#include "io/output_file.h"

namespace stk::harness::fhcollect {

namespace {

void put16(unsigned char* p, unsigned v) { p[0] = v & 255, p[1] = (v >> 8) & 255; }
void put32(unsigned char* p, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = (v >> (8 * i)) & 255;
}
void put64(unsigned char* p, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = (v >> (8 * i)) & 255;
}
unsigned get16(const unsigned char* p) { return p[0] | (p[1] << 8); }
std::uint32_t get32(const unsigned char* p) {
  return p[0] | (p[1] << 8) | (p[2] << 16) | (std::uint32_t(p[3]) << 24);
}
std::uint64_t get64(const unsigned char* p) {
  return get32(p) | (std::uint64_t(get32(p + 4)) << 32);
}

}  // namespace

void encode(const SegmentHeader& h, unsigned char out[kHeaderSize]) {
  std::memset(out, 0, kHeaderSize);
  std::memcpy(out, kMagic, 8);
  put16(out + 8, kVersion);
  put16(out + 10, kRecordSize);
  put16(out + 12, unsigned(h.search_depth));
  put16(out + 14, unsigned(h.full_depth));
  put32(out + 16, h.seed);
  put16(out + 20, unsigned(h.shard_index));
  put16(out + 22, unsigned(h.shard_count));
  put64(out + 24, h.record_count);
}

void encode(const Record& r, unsigned char out[kRecordSize]) {
  using namespace search::fh;
  std::memset(out, 0, kRecordSize);
  put32(out + 0, r.position_id);
  put32(out + 4, r.node_id);
  out[8] = r.in.side;
  out[9] = (r.in.whole_node ? 1 : 0) | (r.label ? 2 : 0) | (r.in.improving ? 4 : 0) |
           (r.in.opp_improving ? 8 : 0) | (r.in.cut_node ? 16 : 0) | (r.black ? 32 : 0);
  out[10] = std::uint8_t(r.in.depth);
  out[11] = std::uint8_t(std::min(r.ply, 255));
  put16(out + 12, unsigned(r.in.gap));
  out[14] = r.in.tier;
  out[15] = std::uint8_t(r.in.ordinal);
  out[16] = std::uint8_t(r.in.legal);
  out[17] = std::uint8_t(r.in.good_captures);
  put16(out + 18, unsigned(std::uint16_t(std::int16_t(r.in.move_value))));
  put16(out + 20, unsigned(r.in.fh_cuts));
  put16(out + 22, unsigned(r.in.fh_tries));
  out[24] = std::uint8_t(r.in.phase);
  put16(out + 26, unsigned(std::min(r.prediction, 65535)));
  put16(out + 28, unsigned(r.weight));
  put16(out + 30, unsigned(std::uint16_t(std::int16_t(r.static_eval))));
}

RecordWriter::RecordWriter(const std::string& path, const SegmentHeader& header)
    : path_(path), header_(header) {
  io::require_writable_target(path);  // refused before any record is collected
  bytes_.resize(kHeaderSize);
}

RecordWriter::~RecordWriter() = default;

void RecordWriter::write(const Record& r) {
  if (!open_) throw InputError(path_ + ": written after close");
  unsigned char b[kRecordSize];
  encode(r, b);
  bytes_.insert(bytes_.end(), b, b + kRecordSize);
  ++count_;
}

void RecordWriter::close() {
  if (!open_) return;
  open_ = false;
  header_.record_count = count_;
  encode(header_, bytes_.data());
  io::replace_file(path_,
                   std::string_view(reinterpret_cast<const char*>(bytes_.data()), bytes_.size()));
}

std::vector<Record> read_records(const std::string& path, std::vector<SegmentHeader>* segments) {
  const std::string text = io::read_input_file(path);  // a device or FIFO refused, size capped
  const std::vector<unsigned char> data(text.begin(), text.end());
  return parse_records(data, path, segments);
}

std::vector<Record> parse_records(const std::vector<unsigned char>& data, const std::string& path,
                                  std::vector<SegmentHeader>* segments) {
  using namespace search::fh;
  auto fail = [&](std::uint64_t off, const std::string& why) -> void {
    throw InputError(path + ": byte " + std::to_string(off) + ": " + why);
  };
  std::vector<Record> out;
  std::vector<SegmentHeader> segs;
  std::uint64_t pos = 0;
  if (data.empty()) fail(0, "empty file (no segment header)");
  while (pos < data.size()) {
    if (data.size() - pos < kHeaderSize) fail(pos, "truncated segment header");
    const unsigned char* h = data.data() + pos;
    if (std::memcmp(h, kMagic, 8) != 0) fail(pos, "bad magic (expected STKFHREC)");
    if (get16(h + 8) != kVersion)
      fail(pos + 8, "unsupported version " + std::to_string(get16(h + 8)));
    if (get16(h + 10) != kRecordSize)
      fail(pos + 10, "record size " + std::to_string(get16(h + 10)) + ", expected 32");
    SegmentHeader sh;
    sh.offset = pos;
    sh.search_depth = int(get16(h + 12));
    sh.full_depth = int(get16(h + 14));
    sh.seed = get32(h + 16);
    sh.shard_index = int(get16(h + 20));
    sh.shard_count = int(get16(h + 22));
    sh.record_count = get64(h + 24);
    pos += kHeaderSize;
    if (sh.record_count > (data.size() - pos) / kRecordSize)
      fail(sh.offset + 24, "segment declares " + std::to_string(sh.record_count) +
                               " records but only " +
                               std::to_string((data.size() - pos) / kRecordSize) + " follow");
    for (std::uint64_t i = 0; i < sh.record_count; ++i, pos += kRecordSize) {
      const unsigned char* p = data.data() + pos;
      Record r;
      r.offset = pos;
      r.position_id = get32(p);
      r.node_id = get32(p + 4);
      if (p[8] > 1) fail(pos + 8, "side " + std::to_string(p[8]) + " (0 alpha, 1 beta)");
      if (p[9] & 0xC0) fail(pos + 9, "reserved flag bits set");
      if (p[10] == 0) fail(pos + 10, "depth 0");
      if (p[14] > 4) fail(pos + 14, "tier " + std::to_string(p[14]));
      if (p[25] != 0) fail(pos + 25, "reserved byte nonzero");
      r.in.side = Side(p[8]);
      r.in.whole_node = p[9] & 1;
      r.label = p[9] & 2;
      r.in.improving = p[9] & 4;
      r.in.opp_improving = p[9] & 8;
      r.in.cut_node = p[9] & 16;
      r.black = p[9] & 32;
      r.in.depth = p[10];
      r.ply = p[11];
      r.in.gap = int(get16(p + 12));
      r.in.tier = Tier(p[14]);
      r.in.ordinal = p[15];
      r.in.legal = p[16];
      r.in.good_captures = p[17];
      r.in.move_value = std::int16_t(get16(p + 18));
      r.in.fh_cuts = int(get16(p + 20));
      r.in.fh_tries = int(get16(p + 22));
      r.in.phase = p[24];
      r.prediction = int(get16(p + 26));
      r.weight = int(get16(p + 28));
      r.static_eval = std::int16_t(get16(p + 30));
      if (r.in.whole_node && (r.in.tier != kNoMove || r.in.ordinal != 0))
        fail(pos + 14, "whole-node record with a move tier or ordinal");
      if (!r.in.whole_node && (r.in.tier == kNoMove || r.in.ordinal == 0))
        fail(pos + 14, "move record without a move tier or ordinal");
      if (r.weight == 0) fail(pos + 28, "weight 0");
      out.push_back(r);
    }
    segs.push_back(sh);
  }
  if (segments) *segments = std::move(segs);
  return out;
}

}  // namespace stk::harness::fhcollect
