// One side of a comparison: a git revision (built once with the release preset in its own
// worktree under build/compare/<commit>), the working tree's own build, or any UCI engine (a path
// or a command CMD ARGS, docs/uci.md).
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "cli/file_names.h"

namespace stk::harness::compare {

struct Side {
  enum class Kind { Revision, Worktree, EnginePath } kind = Kind::EnginePath;
  std::string role;     // "base" or "candidate"
  std::string given;    // the argument as given
  std::string label;    // file-name-safe form of `given`, used in report names
  std::string commit;   // full commit (Revision), "" otherwise
  std::string engine;   // the UCI engine: a binary's path, or a command CMD ARGS
  std::string harness;  // its own stk-harness (Revision, Worktree), "" for an engine path
  std::vector<std::pair<std::string, std::string>> options;  // UCI options, NAME=VALUE
  bool is_stk() const { return kind != Kind::EnginePath; }
};

// The longest label: two of them and "-vs-" make a name of at most 200 characters.
inline constexpr std::size_t kMaxLabel = (kMaxNameLength - 4) / 2;

// `given`'s last kMaxLabel characters with every character outside [A-Za-z0-9._-] replaced by
// '_', ".." by '_' and a leading '.' or '-' by '_' ("_" for ""): a name for reports
// (cli/file_names.h), never a path (docs/harnesses/compare.md#names-and-messages).
std::string file_label(const std::string& given);

// "<base label>-vs-<candidate label>": the default --config of compare and bench-diff.
std::string default_config(const std::string& base, const std::string& candidate);

// "worktree": this stk-harness's own build (engine beside it). An existing executable file: an
// engine path. Otherwise a git revision of the repository in the current directory, resolved to
// its full commit (never one starting with '-'), else an engine command whose program is there.
// Throws UsageError when `given` is none of these. Builds nothing.
Side resolve_side(const std::string& role, const std::string& given,
                  const std::vector<std::pair<std::string, std::string>>& options);

// build/compare/<commit> in the repository of the current directory: where a revision is built.
std::string revision_dir(const std::string& commit);

// For a Revision: `git worktree add --detach build/compare/<commit>` (once), then the release
// preset's stk and stk-harness built there with -j2 (skipped when a finished build is recorded).
// Sets engine and harness. Throws InputError naming the log on a failed build. Returns seconds spent.
double build_revision(Side& side);

}  // namespace stk::harness::compare
