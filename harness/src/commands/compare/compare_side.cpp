#include "commands/compare/compare_side.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "cli/cli.h"
#include "io/output_file.h"
#include "commands/compare/output_tail.h"
#include "proc/command_words.h"
#include "proc/process.h"

namespace stk::harness::compare {

namespace fs = std::filesystem;

namespace {

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

// git's answer on stdout alone (its complaints are not part of a commit or a path).
proc::RunResult git(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"git"};
  argv.insert(argv.end(), args.begin(), args.end());
  proc::RunOptions quiet;
  quiet.stderr_to = proc::Stderr::Discarded;
  return proc::run(argv, quiet);
}

// The work tree the comparison runs in (the current directory's). A bare repository resolves
// revisions but has none to hold build/compare/.
fs::path repository_root() {
  const proc::RunResult r = git({"rev-parse", "--show-toplevel"});
  if (r.exit_code != 0)
    throw UsageError("not inside a git work tree: git revisions cannot be built here");
  return trimmed(r.output);
}

// A UCI engine command "CMD ARGS" (docs/uci.md) whose program can be started.
bool is_engine_command(const std::string& given) {
  try {
    return proc::why_not_runnable(proc::command_argv(given)[0]).empty();
  } catch (const proc::CommandSyntaxError&) {
    return false;
  }
}

}  // namespace

std::string file_label(const std::string& given) {
  // A path's end tells most (its engine's name): a long side keeps its last characters, so that
  // "<base>-vs-<candidate>" stays a name (kMaxNameLength) however long the sides are.
  const std::string kept = given.size() > kMaxLabel ? given.substr(given.size() - kMaxLabel)
                                                    : given;
  std::string out;
  for (char c : kept) out += is_name_char(c) ? c : '_';
  // A name, not a path (cli/file_names.h): no "..", no leading '.' or '-', never empty.
  for (std::size_t at; (at = out.find("..")) != std::string::npos;) out.replace(at, 2, "_");
  if (!out.empty() && (out[0] == '.' || out[0] == '-')) out[0] = '_';
  return out.empty() ? "_" : out;
}

std::string default_config(const std::string& base, const std::string& candidate) {
  return file_label(base) + "-vs-" + file_label(candidate);
}

Side resolve_side(const std::string& role, const std::string& given,
                  const std::vector<std::pair<std::string, std::string>>& options) {
  Side s;
  s.role = role;
  s.given = given;
  s.label = file_label(given);
  s.options = options;
  if (given.empty()) throw UsageError("--" + role + " is empty");
  if (given == "worktree") {
    fs::path self = fs::canonical("/proc/self/exe");
    s.kind = Side::Kind::Worktree;
    s.harness = self.string();
    s.engine = (self.parent_path().parent_path() / "engine" / "stk").string();
    if (!fs::exists(s.engine))
      throw InputError("--" + role + " worktree: no engine binary at " + s.engine);
    return s;
  }
  if (fs::is_regular_file(given)) {
    if (access(given.c_str(), X_OK) != 0)
      throw UsageError("--" + role + " " + given + ": not an executable file");
    s.kind = Side::Kind::EnginePath;
    s.engine = fs::absolute(given).string();
    return s;
  }
  // A revision never starts with '-' (git would read it as an option); --end-of-options makes sure.
  if (given[0] == '-')
    throw UsageError(fmt::format(
        "--{} {}: neither an executable engine file nor a git revision (a revision does not "
        "start with '-')",
        role, given));
  const proc::RunResult r = git(
      {"rev-parse", "--verify", "--quiet", "--end-of-options", given + "^{commit}"});
  if (r.exit_code == 0) {
    s.kind = Side::Kind::Revision;
    s.commit = trimmed(r.output);
    return s;
  }
  if (is_engine_command(given)) {
    s.kind = Side::Kind::EnginePath;
    s.engine = given;
    return s;
  }
  throw UsageError(fmt::format(
      "--{} {}: neither an executable engine file nor a git revision of this repository (nor an "
      "engine command CMD ARGS whose program is there)",
      role, given));
}

std::string revision_dir(const std::string& commit) {
  return (repository_root() / "build" / "compare" / commit).string();
}

double build_revision(Side& side) {
  if (side.kind != Side::Kind::Revision) return 0;
  const auto t0 = std::chrono::steady_clock::now();
  const fs::path dir = revision_dir(side.commit);
  const fs::path built = dir / "build" / "release" / ".compare-built";
  side.engine = (dir / "build" / "release" / "engine" / "stk").string();
  side.harness = (dir / "build" / "release" / "harness" / "stk-harness").string();
  if (fs::exists(built) && fs::exists(side.engine) && fs::exists(side.harness)) return 0;
  if (!fs::exists(dir / ".git")) {
    fs::create_directories(dir.parent_path());
    std::cout << fmt::format("compare: {} {}: git worktree add --detach {}\n", side.role,
                             side.given, dir.string())
              << std::flush;
    const proc::RunResult add = proc::run(
        {"git", "worktree", "add", "--detach", "--", dir.string(), side.commit});
    if (add.exit_code != 0)
      throw InputError(fmt::format("--{} {}: git worktree add failed:\n{}", side.role, side.given,
                                   tail_lines(add.output, 10)));
  }
  const std::string log = (dir / "compare-build.log").string();
  std::cout << fmt::format("compare: {} {}: building the release preset in {} (log {})\n",
                           side.role, side.given, dir.string(), log)
            << std::flush;
  proc::RunOptions in_tree;
  in_tree.cwd = dir.string();
  proc::RunResult b = proc::run({"cmake", "--preset", "release"}, in_tree);
  if (b.exit_code == 0) {
    const proc::RunResult built_now = proc::run({"cmake", "--build", "--preset", "release", "-j2",
                                                 "--target", "stk", "stk-harness"},
                                                in_tree);
    b.output += built_now.output;
    b.exit_code = built_now.exit_code;
  }
  io::replace_file(log, b.output);
  if (b.exit_code != 0 || !fs::exists(side.engine) || !fs::exists(side.harness))
    throw InputError(fmt::format("--{} {} ({}): the release build failed, see {}:\n{}", side.role,
                                 side.given, side.commit, log, tail_lines(b.output, 15)));
  io::replace_file(built, side.commit + "\n");
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace stk::harness::compare
