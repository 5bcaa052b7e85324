// UCI target: stk::uci_loop reading the input as command lines. The input is made cheap and
// local first, so that the fuzzer tests parsing rather than timing or the file system:
//   - at most kMaxLines lines, up to the first "quit";
//   - go: "infinite"/"ponder" dropped (they wait for a stop), "perft N" capped at 2, and
//     " nodes 256" appended (the last limit wins), so every search ends after 256 nodes;
//   - setoption Hash: a value above 8 MB becomes 8;
//   - setoption EvalFile / FHModel: a value other than ""/<empty>/<builtin> becomes the path of a
//     scratch file of its own holding that value ('|' for newline): the loaders read fuzzed
//     bytes, never the machine's files.
// The engine treats end of input as "quit" (stop, drop deferred commands), so the session ends
// with one more "isready" and the input reaches its end only once every isready is answered.
// Checks: uci_loop returns 0; every isready is answered by exactly one readyok (within
// kSyncTimeout); every bestmove names a well-formed UCI move (or 0000).
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <regex>
#include <sstream>
#include <streambuf>
#include <string>
#include <thread>
#include <vector>

#include "fuzz_checks.h"
#include "uci.h"

namespace stk::fuzz {

namespace {

constexpr int kMaxLines = 64;
constexpr auto kSyncTimeout = std::chrono::seconds(20);  // below ci/fuzz.py's -timeout=30

// The engine's output, written by its two threads, read by the input side while it runs.
class Transcript : public std::streambuf {
 public:
  std::string text() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return text_;
  }
  int readyok() const {
    std::istringstream lines(text());
    int n = 0;
    for (std::string line; std::getline(lines, line);) n += line == "readyok";
    return n;
  }

 protected:
  int_type overflow(int_type c) override {
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      std::lock_guard<std::mutex> lock(mutex_);
      text_ += traits_type::to_char_type(c);
    }
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    std::lock_guard<std::mutex> lock(mutex_);
    text_.append(s, std::size_t(n));
    return n;
  }

 private:
  mutable std::mutex mutex_;
  std::string text_;
};

// The session's commands, then end of input once `out` holds `expected` readyok lines (or after
// kSyncTimeout: synced() says which).
class SessionInput : public std::streambuf {
 public:
  SessionInput(std::string commands, const Transcript& out, int expected)
      : data_(std::move(commands)), out_(out), expected_(expected) {
    setg(data_.data(), data_.data(), data_.data() + data_.size());
  }
  bool synced() const { return synced_; }

 protected:
  int_type underflow() override {
    const auto deadline = std::chrono::steady_clock::now() + kSyncTimeout;
    while (out_.readyok() < expected_ && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    synced_ = out_.readyok() >= expected_;
    return traits_type::eof();
  }

 private:
  std::string data_;
  const Transcript& out_;
  int expected_;
  bool synced_ = false;
};

std::vector<std::string> tokens_of(const std::string& line) {
  std::istringstream is(line);
  std::vector<std::string> t;
  for (std::string s; is >> s;) t.push_back(s);
  return t;
}

std::string join(const std::vector<std::string>& t, std::size_t from, std::size_t to) {
  std::string s;
  for (std::size_t i = from; i < to && i < t.size(); ++i) s += (s.empty() ? "" : " ") + t[i];
  return s;
}

// The leading integer of `s` as `istream >> long long` would read it, when there is one.
bool leading_int(const std::string& s, long long& v) {
  std::istringstream is(s);
  return bool(is >> v);
}

std::string make_local(const std::string& line, int number) {
  std::vector<std::string> t = tokens_of(line);
  if (t.empty()) return line;
  if (t[0] == "go") {
    std::vector<std::string> out;
    for (const std::string& tok : t) {
      long long v;
      if (tok == "infinite" || tok == "ponder") continue;
      if (!out.empty() && out.back() == "perft" && leading_int(tok, v) && v > 2) out.push_back("2");
      else out.push_back(tok);
    }
    return join(out, 0, out.size()) + " nodes 256";
  }
  if (t[0] == "setoption" && t.size() > 1) {
    // The engine's reading: t[1] is "name", the name runs to "value", the value to the end.
    std::size_t v = 2;
    while (v < t.size() && t[v] != "value") ++v;
    if (v == t.size()) return line;
    const std::string name = join(t, 2, v), value = join(t, v + 1, t.size());
    std::string local = value;
    long long mb;
    if (name == "Hash" && leading_int(value, mb) && mb > 8) local = "8";
    if ((name == "EvalFile" || name == "FHModel") && !value.empty() && value != "<empty>" &&
        value != "<builtin>") {
      std::string content = value;
      for (char& c : content)
        if (c == '|') c = '\n';
      local = scratch_file("option-file-" + std::to_string(number), content);
    }
    return "setoption " + t[1] + " " + name + " value " + local;
  }
  return line;
}

}  // namespace

bool check_uci(const std::uint8_t* data, std::size_t size) {
  std::istringstream raw(std::string(reinterpret_cast<const char*>(data), size));
  std::string commands, line;
  int isready = 1;  // the closing one
  for (int n = 0; n < kMaxLines && std::getline(raw, line); ++n) {
    const std::vector<std::string> t = tokens_of(line);
    if (!t.empty() && t[0] == "quit") break;
    isready += !t.empty() && t[0] == "isready";
    commands += make_local(line, n) + "\n";
  }
  commands += "isready\n";
  Transcript transcript;
  SessionInput input(commands, transcript, isready);
  std::istream in(&input);
  std::ostream out(&transcript);
  require(uci_loop(in, out) == 0, "uci_loop returned nonzero");  // its own engine and network
  const std::string answers = transcript.text();
  const std::string context = "; commands:\n" + commands + "answers:\n" + answers;
  require(input.synced(),
          "isready not answered within " + std::to_string(kSyncTimeout.count()) + " s" + context);

  static const std::regex move(R"((0000|[a-h][1-8][a-h][1-8][nbrq]?))");
  std::istringstream lines(answers);
  int readyok = 0, bestmoves = 0;
  while (std::getline(lines, line)) {
    readyok += line == "readyok";
    const std::vector<std::string> t = tokens_of(line);
    if (t.empty() || t[0] != "bestmove") continue;
    require(t.size() >= 2 && std::regex_match(t[1], move), "malformed answer: " + line);
    ++bestmoves;
  }
  require(readyok == isready, std::to_string(isready) + " isready answered by " +
                                  std::to_string(readyok) + " readyok" + context);
  return bestmoves > 0;
}

}  // namespace stk::fuzz
