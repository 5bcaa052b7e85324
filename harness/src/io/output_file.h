// The one way the harness writes a file: every report (JUnit, JSON, Markdown), summary, PGN,
// journal, state and result file goes through here.
//
// Whole files (replace_file) are written atomically: a unique temporary "<name>.tmp.XXXXXX" in the
// target's own folder, every write checked, fsync'd, closed (checked), renamed over the target, and
// the folder fsync'd. On any failure the temporary is removed and the target is untouched: a reader
// sees the old file or the new one, never a partial or 0-byte one.
//
// An existing target that is not a regular file (a character or block device such as /dev/null, a
// FIFO, a directory, a socket) is refused: InputError "PATH: is a character device, not a regular
// file: refusing to replace it" (exit 2). The harness never writes through to a device and never
// replaces one by a regular file.
//
// Appended files (AppendFile: the match journal, the PGN) take whole records: each append writes
// every byte (checked) and fdatasyncs before it returns; a failed append cuts the file back to its
// length before the append (best effort) and throws InputError naming the file, which stops the run.
// A file the open left empty is removed if the run is stopped (io/interruption.h) before its first
// record: a stop never leaves a 0-byte file.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "io/interruption.h"

namespace stk::harness::io {

// Throws InputError "PATH: is a FIFO, not a regular file: refusing to replace it" when `path` exists
// and is not a regular file (symbolic links followed). A missing path is fine.
void require_regular_target(const std::string& path);

// require_regular_target, and also the place it would be written: the nearest folder above `path`
// that exists must be a folder this process may write in (not a file, device or dangling or
// looping link; not read-only, a read-only mount included), or InputError names that folder. A run
// calls it for each file it will write before it starts its work, so that an unwritable output is
// refused at once instead of after hours (nothing is created).
void require_writable_target(const std::string& path);

// require_regular_target, and also refuses a symbolic link at `path` (dangling or not): a file
// kept and appended to in place (a journal, a PGN collection, a data file, a database) is written
// at its own name only, never through a link ("PATH: is a symbolic link: ...").
void require_own_regular_target(const std::string& path);

// 0666 less the process's umask: the mode a plain open gives, and every output's (docs/faults.md).
unsigned plain_file_mode();

// Creates the parent folders of `path`; throws InputError naming the folder and the reason.
void create_parent_dirs(const std::string& path);

// Writes `content` to `path` atomically (see above), creating parent folders; InputError naming
// the path and the failed step ("cannot write", "cannot fsync", "cannot rename ... over it": why).
void replace_file(const std::string& path, std::string_view content);
// replace_file without the throw: "" on success, else the error text.
std::string try_replace_file(const std::string& path, std::string_view content);

class AppendFile {
 public:
  AppendFile() = default;
  ~AppendFile();
  AppendFile(const AppendFile&) = delete;
  AppendFile& operator=(const AppendFile&) = delete;

  // Opens `path` for appending, creating it (and its folders) when missing; with `keep_bytes`, the
  // file is first cut to that length (a torn tail dropped). Refuses a non-regular target.
  void open(const std::string& path, std::optional<std::uint64_t> keep_bytes = std::nullopt);
  bool is_open() const { return fd_ >= 0; }
  // Writes all of `text` at the end and fdatasyncs it; InputError naming the file on any failure,
  // after which the file is cut back to its length before the append (removed if that was 0) and closed.
  void append(std::string_view text);
  // Closes the file, checked (InputError); the destructor closes unchecked.
  void close();

 private:
  std::string path_;
  int fd_ = -1;
  std::unique_ptr<RemoveOnInterrupt> while_empty_;  // until the first record is in
};

// Opens, appends `text` (fdatasync'd) and closes `path`, each step checked.
void append_to_file(const std::string& path, std::string_view text);

}  // namespace stk::harness::io
