// The fail-high collection's record files (.fhr): fixed-width little-endian records in
// segments with a versioned header (docs/fail-high-predictor.md). Shards write their own
// files; concatenating files gives a valid file. stkref.fhrecords is the Python reader.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "search/fhmodel.h"

namespace stk::harness::fhcollect {

constexpr char kMagic[8] = {'S', 'T', 'K', 'F', 'H', 'R', 'E', 'C'};
constexpr int kVersion = 1;
constexpr int kHeaderSize = 32;
constexpr int kRecordSize = 32;

struct SegmentHeader {
  int search_depth = 0, full_depth = 0;
  std::uint32_t seed = 0;
  int shard_index = 0, shard_count = 1;
  std::uint64_t record_count = 0;
  std::uint64_t offset = 0;  // byte offset of the header in the file (read only)
};

struct Record {
  std::uint32_t position_id = 0, node_id = 0;
  search::fh::Inputs in;  // side, flags, depth, gap, tier, ordinal, legal, counts, phase
  bool label = false, black = false;
  int ply = 0;
  int prediction = 0;  // P(fail high) x 65536, clamped to 65535
  int weight = 1;      // inverse sampling probability
  int static_eval = 0;
  std::uint64_t offset = 0;  // byte offset in the file (read only)
};

void encode(const Record& r, unsigned char out[kRecordSize]);
void encode(const SegmentHeader& h, unsigned char out[kHeaderSize]);  // h.offset is not stored

// Writes one segment as the whole of `path`: the records are held until close(), which replaces the
// file atomically (io::replace_file) with the header's record count set. A device, FIFO or folder
// at `path` is refused when the writer is made; a run that fails leaves the earlier file whole.
class RecordWriter {
 public:
  RecordWriter(const std::string& path, const SegmentHeader& header);  // throws InputError
  ~RecordWriter();
  RecordWriter(const RecordWriter&) = delete;
  RecordWriter& operator=(const RecordWriter&) = delete;
  void write(const Record& r);
  void close();  // throws InputError on a write failure
  std::uint64_t count() const { return count_; }

 private:
  std::string path_;
  std::vector<unsigned char> bytes_;  // header (count patched in on close), then the records
  bool open_ = true;
  SegmentHeader header_;
  std::uint64_t count_ = 0;
};

// Reads every segment of `path`. Throws InputError "path: byte N: reason" on any malformed
// header or record (the checks of the contract); nothing is returned on error.
std::vector<Record> read_records(const std::string& path,
                                 std::vector<SegmentHeader>* segments = nullptr);
// The same on a whole file image; `name` stands for the path in the errors.
std::vector<Record> parse_records(const std::vector<unsigned char>& data, const std::string& name,
                                  std::vector<SegmentHeader>* segments = nullptr);

}  // namespace stk::harness::fhcollect
