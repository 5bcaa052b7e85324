#include "commands/match/uci_player.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "uci_client/uci_lines.h"

namespace stk::harness::selfplay {

namespace {

// Case-insensitive, as UCI option names are.
std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

long ms_between(SteadyClock::time_point a, SteadyClock::time_point b) {
  return long(std::chrono::duration_cast<std::chrono::milliseconds>(b - a).count());
}

// The first word of a UCI line (white space as uci::parse_info splits it).
std::string_view first_word(const std::string& s) {
  auto space = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
  std::size_t b = 0;
  while (b < s.size() && space(s[b])) ++b;
  std::size_t e = b;
  while (e < s.size() && !space(s[e])) ++e;
  return std::string_view(s).substr(b, e - b);
}

}  // namespace

// Reads the lines backwards and stops once depth and nodes are found: what reading them all
// in order would leave (uci_player.h).
Thought thought_from(const std::vector<std::string>& scored_lines) {
  Thought t;
  bool have_score = false, have_depth = false;
  for (auto it = scored_lines.rbegin(); it != scored_lines.rend(); ++it) {
    const auto info = uci::parse_info(*it);
    if (!info || info->score_kind == uci::InfoLine::Score::None) continue;
    if (!t.nodes) t.nodes = info->nodes;
    if (!have_score) {
      have_score = true;
      if (info->score_kind == uci::InfoLine::Score::Cp) t.score_cp = info->score;
      else {
        t.mate = info->score;
        t.score_cp = info->score > 0 ? 100000 - info->score : -100000 - info->score;
      }
    }
    if (info->depth && !have_depth) t.depth = *info->depth, have_depth = true;
    if (have_depth && t.nodes) break;
  }
  return t;
}

UciPlayer::UciPlayer(EngineConfig config, std::string label, std::chrono::milliseconds timeout)
    : config_(std::move(config)), label_(std::move(label)), timeout_(timeout) {}

UciPlayer::~UciPlayer() = default;

Fault UciPlayer::fault_from_silence(const std::string& waiting_for) {
  if (process_->output_closed() || !process_->running()) {
    process_->wait_exit(SteadyClock::now() + repro::kExitGrace);
    // A process that closed its output and still runs has disconnected; one that ended crashed.
    if (process_->running())
      return {Fault::Kind::Disconnect,
              "closed its output (still running) while waiting for " + waiting_for,
              {"disconnect", "output closed"}};
    const std::string how = process_->exit_status().describe();
    return {Fault::Kind::Crash,
            "crashed (" + how + ") while waiting for " + waiting_for,
            {"crash", how}};
  }
  return {Fault::Kind::Timeout,
          "no " + waiting_for + " within the deadline",
          {"no-answer", waiting_for}};
}

void UciPlayer::note(char direction, const std::string& text, SteadyClock::time_point at) {
  if (record_.transcript.size() >= EngineRecord::kMaxTranscript) return;
  record_.transcript.push_back(
      {std::chrono::duration<double, std::milli>(at - started_).count(), direction, text});
}

bool UciPlayer::send(const std::string& line, std::chrono::milliseconds timeout) {
  record_.commands.push_back(line);
  note('>', line, SteadyClock::now());
  return process_->send(line, timeout);
}

void UciPlayer::start() {
  process_ = std::make_unique<UciProcess>(UciProcess::NoHandshake{}, config_.command,
                                          stderr_.path());
  started_ = SteadyClock::now();
  record_ = {};
  auto fail = [&](const std::string& why) {
    throw EngineStartError("engine " + label_ + " ('" + config_.command + "'): " + why);
  };
  const auto ms = std::to_string(timeout_.count());
  if (!send("uci", timeout_)) fail("does not read its input");
  auto deadline = SteadyClock::now() + timeout_;
  advertised_.clear();
  while (true) {
    auto line = process_->read_line(deadline);
    if (line) note('<', line->text, line->at);
    if (!line)
      fail(process_->output_closed() ? "exited before answering 'uci' with 'uciok'"
                                     : "did not answer 'uci' with 'uciok' within " + ms + " ms");
    if (line->text == "uciok") break;
    if (line->text.starts_with("id name ")) id_name_ = line->text.substr(8);
    std::string problem;
    if (auto opt = uci::parse_option(line->text, &problem)) advertised_.insert(lower(opt->name));
  }
  for (const auto& [name, value] : config_.options) {
    if (!advertised_.count(lower(name)))
      fail("option '" + name + "' is not one the engine advertises (option." + name + "=" + value +
           ")");
    send("setoption name " + name + " value " + value, timeout_);
  }
  handshake_commands_ = record_.commands.size();
  if (auto f = new_game())
    fail("did not answer 'isready' with 'readyok' within " + ms + " ms (" + f->text + ")");
}

void UciPlayer::restart() {
  process_.reset();  // kills the old process
  start();
}

std::optional<Fault> UciPlayer::new_game() {
  // A game's record: the handshake, then this game's commands (not every earlier game's).
  if (handshake_commands_ > 0) record_.commands.resize(handshake_commands_);
  record_.transcript.clear();
  stderr_.mark();
  if (!send("ucinewgame", timeout_) || !send("isready", timeout_))
    return fault_from_silence("readyok");
  const auto deadline = SteadyClock::now() + timeout_;
  while (auto line = process_->read_line(deadline)) {
    note('<', line->text, line->at);
    if (line->text == "readyok") return std::nullopt;
  }
  return fault_from_silence("readyok");
}

std::variant<Thought, Fault> UciPlayer::think(const std::string& position, const std::string& go,
                                              SteadyClock::time_point deadline) {
  // One write for both commands: one syscall here, one wake-up of the engine.
  record_.commands.push_back(position);
  record_.commands.push_back(go);
  note('>', position, SteadyClock::now());
  note('>', go, SteadyClock::now());
  if (!process_->send(position + "\n" + go)) return fault_from_silence("bestmove");
  const auto sent = SteadyClock::now();
  scored_lines_.clear();
  while (auto line = process_->read_line(deadline)) {
    note('<', line->text, line->at);
    const std::string_view word = first_word(line->text);
    // Only the last scored info lines decide the Thought: keep them, parse them once at bestmove.
    if (word == "info") {
      if (line->text.find("score") != std::string::npos)
        scored_lines_.push_back(std::move(line->text));
      // The last lines decide; an engine that floods info lines must not grow this without end.
      if (scored_lines_.size() > 1024)
        scored_lines_.erase(scored_lines_.begin(), scored_lines_.begin() + 512);
      continue;
    }
    if (word != "bestmove") continue;
    if (auto best = uci::parse_bestmove(line->text)) {
      Thought t = thought_from(scored_lines_);
      t.move = best->move;
      t.elapsed_ms = ms_between(sent, line->at);
      return t;
    }
  }
  return fault_from_silence("bestmove");
}

}  // namespace stk::harness::selfplay
