#include "commands/match/match_settings.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "cli/cli.h"
#include "proc/command_words.h"

namespace stk::harness::selfplay {

long long parse_integer(const std::string& text, const std::string& what, long long lo,
                        long long hi) {
  long long v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi)
    throw UsageError(fmt::format("{}: '{}' is not an integer in [{}, {}]", what, text, lo, hi));
  return v;
}

std::map<std::string, std::string> parse_key_values(const std::vector<std::string>& tokens,
                                                    const std::string& option,
                                                    const std::vector<std::string>& keys) {
  std::map<std::string, std::string> out;
  for (const std::string& t : tokens) {
    const auto eq = t.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError(option + ": expected key=value, got '" + t + "'");
    const std::string key = t.substr(0, eq);
    const bool known = std::find(keys.begin(), keys.end(), key) != keys.end() ||
                       (key.starts_with("option.") &&
                        std::find(keys.begin(), keys.end(), "option.") != keys.end());
    if (!known) throw UsageError(option + ": unknown key '" + key + "' in '" + t + "'");
    if (out.count(key)) throw UsageError(option + ": '" + key + "' given twice");
    out[key] = t.substr(eq + 1);
  }
  return out;
}

std::string TimeControl::text() const {
  switch (kind) {
    case Kind::Clock: {
      auto secs = [](int ms) {
        return ms % 1000 ? fmt::format("{:g}", ms / 1000.0) : std::to_string(ms / 1000);
      };
      return secs(base_ms) + "+" + secs(inc_ms);
    }
    case Kind::Nodes: return "nodes=" + std::to_string(nodes);
    case Kind::Depth: return "depth=" + std::to_string(depth);
  }
  return "?";
}

std::string TimeControl::go_args(int wtime, int btime) const {
  switch (kind) {
    case Kind::Clock:
      return fmt::format("wtime {} btime {} winc {} binc {}", wtime, btime, inc_ms, inc_ms);
    case Kind::Nodes: return "nodes " + std::to_string(nodes);
    case Kind::Depth: return "depth " + std::to_string(depth);
  }
  return "";
}

TimeControl parse_clock(const std::string& text) {
  const auto plus = text.find('+');
  auto seconds = [&](const std::string& s) {
    double v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v) ||
        v < 0 || v > 1e6)
      throw UsageError("--tc: expected BASE+INC in seconds (e.g. 10+0.1), got '" + text + "'");
    return int(std::lround(v * 1000));
  };
  TimeControl tc;
  tc.kind = TimeControl::Kind::Clock;
  tc.base_ms = seconds(text.substr(0, plus));
  tc.inc_ms = plus == std::string::npos ? 0 : seconds(text.substr(plus + 1));
  if (tc.base_ms <= 0) throw UsageError("--tc: the base time must be positive, got '" + text + "'");
  return tc;
}

EngineConfig parse_engine(const std::vector<std::string>& tokens) {
  const auto kv = parse_key_values(tokens, "--engine",
                                   {"cmd", "name", "nodes", "depth", "option."});
  EngineConfig e;
  if (!kv.count("cmd") || kv.at("cmd").empty()) throw UsageError("--engine: cmd=CMD is required");
  e.command = kv.at("cmd");
  try {
    proc::command_argv(e.command);  // refused now, not when the engine starts
  } catch (const proc::CommandSyntaxError& err) {
    throw UsageError("--engine cmd=" + e.command + ": " + err.what());
  }
  if (kv.count("name")) e.name = kv.at("name");
  if (kv.count("nodes") && kv.count("depth"))
    throw UsageError("--engine: give nodes= or depth=, not both");
  if (kv.count("nodes")) {
    e.limit = TimeControl{};
    e.limit->nodes = std::uint64_t(parse_integer(kv.at("nodes"), "--engine nodes=", 1, 1LL << 40));
  }
  if (kv.count("depth")) {
    e.limit = TimeControl{TimeControl::Kind::Depth};
    e.limit->depth = int(parse_integer(kv.at("depth"), "--engine depth=", 1, 100));
  }
  for (const auto& [k, v] : kv)
    if (k.starts_with("option.")) {
      if (k.size() == 7) throw UsageError("--engine: option. without a name");
      e.options[k.substr(7)] = v;
    }
  return e;
}

Adjudication::Draw parse_draw(const std::vector<std::string>& tokens) {
  const auto kv = parse_key_values(tokens, "--draw", {"movenumber", "movecount", "score"});
  Adjudication::Draw d;
  if (kv.count("movenumber"))
    d.movenumber = int(parse_integer(kv.at("movenumber"), "--draw movenumber", 0, 10000));
  if (kv.count("movecount"))
    d.movecount = int(parse_integer(kv.at("movecount"), "--draw movecount", 1, 10000));
  if (kv.count("score")) d.score = int(parse_integer(kv.at("score"), "--draw score", 0, 100000));
  return d;
}

Adjudication::Resign parse_resign(const std::vector<std::string>& tokens) {
  const auto kv = parse_key_values(tokens, "--resign", {"movecount", "score"});
  Adjudication::Resign r;
  if (kv.count("movecount"))
    r.movecount = int(parse_integer(kv.at("movecount"), "--resign movecount", 1, 10000));
  if (kv.count("score")) r.score = int(parse_integer(kv.at("score"), "--resign score", 1, 100000));
  return r;
}

}  // namespace stk::harness::selfplay
