#include "commands/uci-check/engine_session.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace stk::harness::ucicheck {

namespace {
constexpr std::size_t kMaxRecorded = 400;  // characters of one line kept in the transcript
// A flooding engine must not exhaust the harness: beyond these, lines are still read and matched
// but no longer kept (a note in the transcript says so).
constexpr std::size_t kMaxTranscriptEntries = 100000;
constexpr std::size_t kMaxReplyBytes = std::size_t(16) << 20;
constexpr std::size_t kMaxStderrChunk = std::size_t(1) << 20;

std::string make_stderr_file() {
  char name[] = "/tmp/stk-uci-check-stderr-XXXXXX";
  int fd = mkstemp(name);
  if (fd < 0) return "";
  close(fd);
  return name;
}
// At most 200 characters of an engine's line for a message, control bytes as \xNN.
std::string printable_prefix(const std::string& text) {
  std::string out;
  for (unsigned char c : text.substr(0, 200))
    out += c >= 0x20 && c < 0x7f ? std::string(1, char(c)) : fmt::format("\\x{:02x}", c);
  return text.size() > 200 ? out + "... (" + std::to_string(text.size()) + " bytes)" : out;
}

}  // namespace

double ms_between(SteadyClock::time_point from, SteadyClock::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

Session::Session(const Settings& settings)
    : settings_(settings),
      stderr_path_(make_stderr_file()),
      remove_stderr_file_(stderr_path_),
      process_(UciProcess::NoHandshake{}, settings.engine, stderr_path_),
      start_(SteadyClock::now()) {}

Session::~Session() {
  if (!stderr_path_.empty()) unlink(stderr_path_.c_str());
}

void Session::collect_stderr() {
  if (stderr_path_.empty()) return;
  std::ifstream in(stderr_path_, std::ios::binary);
  in.seekg(std::streamoff(stderr_read_));
  std::string text(kMaxStderrChunk, '\0');
  in.read(text.data(), std::streamsize(text.size()));
  text.resize(std::size_t(in.gcount()));
  if (text.size() == kMaxStderrChunk && text.find('\n') == std::string::npos)
    text.back() = '\n';  // an endless stderr line is taken in pieces
  // Only whole lines; a partial last line waits for the next call.
  std::size_t end = text.rfind('\n');
  if (end == std::string::npos) return;
  stderr_read_ += end + 1;
  std::istringstream lines(text.substr(0, end));
  for (std::string l; std::getline(lines, l);) record('!', l, SteadyClock::now());
}

const std::vector<TranscriptEntry>& Session::transcript() {
  collect_stderr();
  return transcript_;
}

void Session::record(char direction, const std::string& text, SteadyClock::time_point at) {
  if (transcript_.size() > kMaxTranscriptEntries) return;
  if (transcript_.size() == kMaxTranscriptEntries) {
    transcript_.push_back({ms_between(start_, at), '#', "transcript full: later lines not kept"});
    return;
  }
  std::string kept = text.size() <= kMaxRecorded ? text
                                                 : text.substr(0, kMaxRecorded) + "... (" +
                                                       std::to_string(text.size()) + " bytes)";
  transcript_.push_back({ms_between(start_, at), direction, std::move(kept)});
}

void Session::note(const std::string& text) { record('#', text, SteadyClock::now()); }

bool Session::send(const std::string& line) {
  record('>', line, SteadyClock::now());
  bool ok = process_.send(line, timeout(Timeouts::kPrompt));
  if (!ok) note("could not send: the engine is " + state() + " or not reading its input");
  return ok;
}

Reply Session::wait_for(const std::function<bool(const std::string&)>& match,
                        std::chrono::milliseconds timeout,
                        std::optional<SteadyClock::time_point> since) {
  SteadyClock::time_point from = since.value_or(SteadyClock::now());
  SteadyClock::time_point deadline = from + timeout;
  Reply r;
  std::size_t kept_bytes = 0;
  while (auto line = process_.read_line(deadline)) {
    record('<', line->text, line->at);
    const bool matched = match(line->text);
    if (!matched && kept_bytes > kMaxReplyBytes) continue;
    kept_bytes += line->text.size();
    r.lines.push_back(std::move(*line));
    if (matched) {
      r.found = true;
      r.ms = ms_between(from, r.lines.back().at);
      return r;
    }
  }
  r.closed = process_.output_closed();
  r.ms = ms_between(from, SteadyClock::now());
  return r;
}

Reply Session::wait_bestmove(std::chrono::milliseconds timeout,
                             std::optional<SteadyClock::time_point> since) {
  return wait_for([](const std::string& l) { return uci::parse_bestmove(l).has_value(); }, timeout,
                  since);
}

Reply Session::isready(std::chrono::milliseconds timeout) {
  auto sent = SteadyClock::now();
  send("isready");
  return wait_for([](const std::string& l) { return l == "readyok"; }, timeout, sent);
}

std::vector<TimedLine> Session::listen(std::chrono::milliseconds quiet) {
  return wait_for([](const std::string&) { return false; }, quiet).lines;
}

bool Session::alive() { return process_.running() && !process_.output_closed(); }

bool Session::wait_exit(std::chrono::milliseconds timeout) {
  return process_.wait_exit(SteadyClock::now() + timeout);
}

std::string Session::state() {
  // An engine that closed its output is usually dying: give it a moment to be reaped.
  if (process_.output_closed())
    process_.wait_exit(SteadyClock::now() + std::chrono::milliseconds(200));
  collect_stderr();
  if (process_.running()) return process_.output_closed() ? "alive but closed its output" : "alive";
  return "gone (" + process_.exit_status().describe() + ")";
}

void Session::restart() {
  note("restarting the engine (" + state() + ")");
  process_.restart();
  uci_reply_.clear();
  options_.clear();
  start();
}

void Session::start() {
  const std::string who = "engine '" + settings_.engine + "'";
  auto describe_failure = [&](const std::string& what, const Reply& r) {
    std::string s = who + " " + what;
    if (r.closed || !process_.running()) {
      wait_exit(std::chrono::milliseconds(200));
      s += ": it " + std::string(process_.running()
                                     ? "closed its output"
                                     : "ended, " + process_.exit_status().describe());
      if (process_.exit_status().code == 127) s += " (command not found?)";
    }
    if (!r.lines.empty()) s += "; last line: '" + printable_prefix(r.lines.back().text) + "'";
    return StartError(s);
  };
  auto sent = SteadyClock::now();
  send("uci");
  Reply r = wait_for([](const std::string& l) { return l == "uciok"; }, timeout(Timeouts::kStart),
                     sent);
  if (!r.found)
    throw describe_failure("did not answer 'uci' with 'uciok' within " +
                               std::to_string(timeout(Timeouts::kStart).count()) + " ms",
                           r);
  uci_ms_ = r.ms;
  uci_reply_ = r.lines;
  for (const TimedLine& l : uci_reply_) {
    if (l.text.starts_with("id name ")) id_name_ = l.text.substr(8);
    std::string problem;
    if (auto o = uci::parse_option(l.text, &problem); o && problem.empty()) options_.push_back(*o);
  }
  for (const auto& [name, value] : settings_.options)
    send("setoption name " + name + " value " + value);
  Reply ready = isready(timeout(Timeouts::kStart));
  if (!ready.found)
    throw describe_failure("did not answer 'isready' with 'readyok' within " +
                               std::to_string(timeout(Timeouts::kStart).count()) + " ms",
                           ready);
  readyok_ms_ = ready.ms;
}

}  // namespace stk::harness::ucicheck
