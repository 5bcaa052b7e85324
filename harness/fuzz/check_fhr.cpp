// .fhr target: the fail-high record reader (segments of a versioned header + 32-byte records).
#include <cstring>
#include <string>

#include "cli/cli.h"
#include "fail_high/record_file.h"
#include "fuzz_checks.h"

namespace stk::fuzz {

namespace fc = harness::fhcollect;

bool check_fhr(const std::uint8_t* data, std::size_t size) {
  const std::vector<unsigned char> bytes(data, data + size);
  std::vector<fc::Record> records;
  std::vector<fc::SegmentHeader> segments;
  try {
    records = fc::parse_records(bytes, "fuzz.fhr", &segments);
  } catch (const harness::InputError& e) {
    // "fuzz.fhr: byte N: reason" with N inside the file (or 0 for an empty one).
    const std::string msg = e.what(), prefix = "fuzz.fhr: byte ";
    require(msg.rfind(prefix, 0) == 0, "error does not name the byte: " + msg);
    const unsigned long long at = std::stoull(msg.substr(prefix.size()));
    require(at < std::max<std::size_t>(size, 1), "error offset past the end of the file: " + msg);
    return false;
  }
  // Accepted: the segments tile the file and every header and record re-encodes byte for byte.
  std::uint64_t pos = 0, count = 0;
  std::size_t next_record = 0;
  for (const fc::SegmentHeader& h : segments) {
    require(h.offset == pos, "segment header at byte " + std::to_string(h.offset) + ", expected " +
                                 std::to_string(pos));
    unsigned char out[fc::kHeaderSize];
    fc::encode(h, out);
    require(std::memcmp(out, data + pos, fc::kHeaderSize) == 0,
            "header at byte " + std::to_string(pos) + " re-encodes differently");
    pos += fc::kHeaderSize;
    for (std::uint64_t i = 0; i < h.record_count; ++i, pos += fc::kRecordSize, ++next_record) {
      require(next_record < records.size(), "fewer records than the headers declare");
      const fc::Record& r = records[next_record];
      require(r.offset == pos,
              "record at byte " + std::to_string(r.offset) + ", expected " + std::to_string(pos));
      unsigned char rec[fc::kRecordSize];
      fc::encode(r, rec);
      require(std::memcmp(rec, data + pos, fc::kRecordSize) == 0,
              "record at byte " + std::to_string(pos) + " re-encodes differently");
    }
    count += h.record_count;
  }
  require(!segments.empty(), "accepted a file with no segment");
  require(pos == size,
          "segments end at byte " + std::to_string(pos) + " of " + std::to_string(size));
  require(count == records.size(), "record count differs from the headers' sum");
  return true;
}

}  // namespace stk::fuzz
