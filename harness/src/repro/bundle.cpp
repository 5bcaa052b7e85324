#include "repro/bundle.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "cli/file_names.h"
#include "common/sha256.h"
#include "file_bytes.h"
#include "io/input_file.h"
#include "proc/command_words.h"
#include "proc/process.h"
#include "report/run_report.h"
#include "report/summary_files.h"

namespace stk::harness::repro {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// "" for anything but a regular file (a device or FIFO is never read).
std::string file_sha256(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return "";
  std::vector<std::uint8_t> bytes;
  std::string error;
  return read_file_bytes(path, &bytes, &error) ? sha256_hex(bytes) : "";
}

// "setoption name EvalFile value PATH" among the commands: the net the engine was given.
std::string net_of(const std::vector<std::string>& commands) {
  const std::string prefix = "setoption name EvalFile value ";
  std::string net;
  for (const std::string& c : commands)
    if (c.starts_with(prefix)) net = c.substr(prefix.size());
  return net;
}

std::string git_revision() {
  proc::RunOptions options;
  options.timeout = std::chrono::seconds(10);
  options.stderr_to = proc::Stderr::Discarded;
  const proc::RunResult r = proc::run({"git", "rev-parse", "HEAD"}, options);
  std::string out = r.exit_code == 0 ? r.output : "";
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out.empty() ? "unknown" : out;
}

std::string lines_of(const std::vector<std::string>& commands) {
  std::string out;
  for (const std::string& c : commands) out += c + "\n";
  return out;
}

std::string transcript_text(const std::vector<TranscriptLine>& transcript) {
  std::string out;
  for (const TranscriptLine& l : transcript)
    out += fmt::format("{:10.3f} {} {}\n", l.t_ms, l.direction, l.text);
  return out;
}

Json symptom_json(const Symptom& s) { return Json{{"kind", s.kind}, {"detail", s.detail}}; }

Json trials_json(const Minimized& m) {
  Json trials = Json::array();
  for (const MinimizeTrial& t : m.trials)
    trials.push_back(Json{{"step", t.step},
                          {"commands", t.commands},
                          {"seen", symptom_json(t.seen)},
                          {"reproduced", t.reproduced},
                          {"ms", std::round(t.ms * 10) / 10}});
  return trials;
}

std::vector<std::string> string_list(const Json& j, const std::string& key,
                                     const std::string& file) {
  if (!j.contains(key) || !j[key].is_array())
    throw InputError(fmt::format("{}: no list '{}'", file, key));
  std::vector<std::string> out;
  for (const Json& v : j[key]) {
    if (!v.is_string()) throw InputError(fmt::format("{}: '{}' holds a non-string", file, key));
    out.push_back(v.get<std::string>());
  }
  return out;
}

// One command a line, exactly as sent (a FIFO or device refused by name).
std::vector<std::string> uci_lines(const std::string& file) {
  const std::string text = io::read_input_file(file);
  std::vector<std::string> out;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// A command list from its .uci file (exact bytes); an empty list has none.
std::vector<std::string> command_list(const Json& j, const std::string& key, const std::string& dir,
                                      const std::string& file) {
  if (string_list(j, key, file).empty()) return {};
  return uci_lines((fs::path(dir) / (key + ".uci")).string());
}

std::string string_field(const Json& j, const std::string& key, const std::string& file) {
  if (!j.contains(key) || !j[key].is_string())
    throw InputError(fmt::format("{}: no string '{}'", file, key));
  return j[key].get<std::string>();
}

// The engine command with a relative program path made absolute, so a replay from another folder
// starts the same program.
// Where the engine's own program is in its command: after `env NAME=VALUE ...` (the sanitizer
// match runs the engine so), else first.
std::size_t program_word(const std::vector<std::string>& argv) {
  std::size_t i = 0;
  if (fs::path(argv.at(0)).filename() != "env") return i;
  for (i = 1; i < argv.size() && argv[i].find('=') != std::string::npos; ++i) {
  }
  return i < argv.size() ? i : 0;
}

std::string absolute_engine(const std::string& engine) {
  try {
    std::vector<std::string> argv = proc::command_argv(engine);
    std::string& program = argv[program_word(argv)];
    if (program.find('/') == std::string::npos || fs::path(program).is_absolute()) return engine;
    program = fs::absolute(program).lexically_normal().string();
    return proc::display_command(argv);
  } catch (const std::exception&) {
    return engine;
  }
}

}  // namespace

std::string engine_sha256(const std::string& engine) {
  try {
    const std::vector<std::string> argv = proc::command_argv(engine);
    return file_sha256(proc::find_program(argv.at(program_word(argv))));
  } catch (const std::exception&) {
    return "";
  }
}

std::vector<std::string> engine_arguments(const std::string& engine) {
  try {
    std::vector<std::string> argv = proc::command_argv(engine);
    argv.erase(argv.begin() + static_cast<std::ptrdiff_t>(program_word(argv)));
    return argv;
  } catch (const std::exception&) {
    return {};
  }
}

std::string write_bundle(const std::string& repro_dir, const Failure& f, const Minimized* m) {
  require_safe_name("reproducer id", f.id);
  const fs::path dir = fs::path(repro_dir) / f.id;
  const std::string net = net_of(f.commands);
  const bool minimized = m && m->reproduced;
  Json j;
  j["schema"] = "stk-repro/1";
  j["id"] = f.id;
  j["source"] = f.source;
  j["engine"] = absolute_engine(f.engine);
  j["engine_sha256"] = engine_sha256(f.engine);
  j["net"] = net.empty() ? Json(nullptr) : Json(net);
  j["net_sha256"] = net.empty() ? Json(nullptr) : Json(file_sha256(net));
  j["revision"] = git_revision();
  j["side"] = f.side;
  j["failure"] = f.what;
  j["symptom"] = symptom_json(f.symptom);
  j["replay"] = proc::display_command({"stk-harness", "replay", dir.string()});
  j["reproduced"] = m ? Json(m->reproduced) : Json(nullptr);
  j["minimal"] = m ? Json(m->minimal) : Json(nullptr);
  j["commands"] = f.commands;
  j["minimized"] = minimized ? m->commands : f.commands;
  j["trials"] = m ? trials_json(*m) : Json::array();
  j["rerun"] = f.rerun.empty() ? Json(nullptr) : Json(f.rerun);
  // The small files first: a bundle whose JSON exists is whole.
  // No empty file is left: a file that would be empty is not written.
  const std::vector<std::pair<const char*, std::string>> files = {
      {"transcript.txt", transcript_text(f.transcript)},
      {"stderr.txt", f.stderr_text},
      {"commands.uci", lines_of(f.commands)},
      {"minimized.uci", lines_of(minimized ? m->commands : f.commands)}};
  for (const auto& [name, text] : files)
    if (!text.empty()) write_text_file((dir / name).string(), text);
  // Commands may hold any byte (uci-check's garbage): the JSON shows them with U+FFFD, the .uci
  // files keep them exactly, and a replay reads those.
  write_text_file((dir / "bundle.json").string(),
                  j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n");
  return dir.string();
}

LoadedBundle load_bundle(const std::string& dir) {
  const std::string file = (fs::path(dir) / "bundle.json").string();
  const report::Json j = report::read_json_file(file);
  if (!j.is_object() || j.value("schema", "") != "stk-repro/1")
    throw InputError(file + ": not a reproducer bundle (schema stk-repro/1)");
  LoadedBundle b;
  b.dir = dir;
  b.id = string_field(j, "id", file);
  // The id names the replay's report files: a bundle's own rule, so its error names the bundle.
  if (!is_safe_name(b.id))
    throw InputError(file +
                     ": field 'id' must be a name (1 to 200 of letters, digits, '.', '_', "
                     "'-'; no '..'; not starting with '.' or '-')");
  b.engine = string_field(j, "engine", file);
  // Recorded since the first bundles; "" where the program could not be read, or not recorded.
  if (j.contains("engine_sha256")) b.engine_sha256 = string_field(j, "engine_sha256", file);
  if (!j.contains("symptom") || !j["symptom"].is_object())
    throw InputError(file + ": no object 'symptom'");
  b.symptom = {string_field(j["symptom"], "kind", file),
               string_field(j["symptom"], "detail", file)};
  if (!b.symptom.failed()) throw InputError(file + ": the symptom names no failure");
  b.commands = command_list(j, "commands", dir, file);
  b.minimized = command_list(j, "minimized", dir, file);
  if (b.symptom.kind == "scenario") b.rerun = string_list(j, "rerun", file);
  if (b.symptom.kind == "scenario" && b.rerun.empty())
    throw InputError(file + ": a scenario bundle needs the 'rerun' command line");
  return b;
}

}  // namespace stk::harness::repro
