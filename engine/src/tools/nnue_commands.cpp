// stk features / stk eval: JSON lines per position, the contract the Python reference reads.
//   {"line": N, "fen": "<fen as read>", "white": [sorted ints], "black": [sorted ints]}
//   {"line": N, "fen": "...", "eval": int, "bucket": int, "psqt": int, "positional": int}
#include <cctype>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "eval/classical.h"
#include "file_bytes.h"
#include "nnue/accumulator.h"
#include "nnue/features.h"
#include "nnue/network.h"
#include "position.h"
#include "tools/commands.h"

namespace stk::tools {

namespace {

struct Input {
  int line = 0;
  std::string fen;  // as read: the FEN fields of the line (EPD operations dropped)
  Position pos;
};

std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\', o += c;
    else if (static_cast<unsigned char>(c) < 0x20) o += ' ';
    else o += c;
  }
  return o;
}

// A line is a 6-field FEN, or EPD: 4 FEN fields then optional operations ("bm e4; id ...").
// Returns the reason on failure.
std::optional<std::string> parse_line(const std::string& text, Input& in) {
  std::vector<std::pair<std::size_t, std::size_t>> tok;  // [begin, end) of each field
  for (std::size_t i = 0; i < text.size();) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i == text.size()) break;
    std::size_t b = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    tok.emplace_back(b, i);
  }
  if (tok.size() < 4)
    return "expected a FEN (6 fields) or EPD (4 fields + operations), got " +
           std::to_string(tok.size()) + " field(s)";
  bool fen_counters = tok.size() >= 5 &&
                      (std::isdigit(static_cast<unsigned char>(text[tok[4].first])) ||
                       text[tok[4].first] == '-');
  if (fen_counters) {
    in.fen = text.substr(tok[0].first, tok.back().second - tok[0].first);
    return in.pos.set(in.fen);  // strict: exactly 6 fields
  }
  in.fen = text.substr(tok[0].first, tok[3].second - tok[0].first);
  return in.pos.set(in.fen, /*allow_missing_counters=*/true);
}

// Reads the positions named on the command line: one FEN argument, or --batch FILE.
// Prints the error (file and line) and returns false on any bad input: never skips a line.
bool read_inputs(const char* cmd, const std::string& fen_arg, const std::string& batch,
                 std::vector<Input>& out) {
  if (batch.empty()) {
    Input in;
    in.line = 1;
    if (auto err = parse_line(fen_arg, in)) {
      std::cerr << "stk " << cmd << ": bad FEN \"" << fen_arg << "\": " << *err << "\n";
      return false;
    }
    out.push_back(std::move(in));
    return true;
  }
  if (std::string why = regular_file_error(batch); !why.empty()) {  // a directory, a missing file
    std::cerr << "stk " << cmd << ": " << why << "\n";
    return false;
  }
  std::ifstream f(batch);
  if (!f) {
    std::cerr << "stk " << cmd << ": " << batch << ": cannot open file\n";
    return false;
  }
  std::string text;
  for (int n = 1; std::getline(f, text); ++n) {
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (text.find_first_not_of(" \t") == std::string::npos) continue;  // empty line
    Input in;
    in.line = n;
    if (auto err = parse_line(text, in)) {
      std::cerr << "stk " << cmd << ": " << batch << ":" << n << ": bad position \"" << text
                << "\": " << *err << "\n";
      return false;
    }
    out.push_back(std::move(in));
  }
  if (f.bad()) {
    std::cerr << "stk " << cmd << ": " << batch << ": read error\n";
    return false;
  }
  return true;
}

void print_ints(std::ostream& o, const std::vector<int>& v) {
  o << '[';
  for (std::size_t i = 0; i < v.size(); ++i) o << (i ? ", " : "") << v[i];
  o << ']';
}

// The classical evaluation of each input: {"line", "fen", "eval"} (side to move, cp), the
// reference scale the net's offline quality is measured against (stktrain.netquality).
int print_classical(const std::vector<Input>& inputs) {
  std::ostringstream o;
  for (const Input& in : inputs)
    o << "{\"line\": " << in.line << ", \"fen\": \"" << json_escape(in.fen)
      << "\", \"eval\": " << eval::classical(in.pos) << "}\n";
  std::cout << o.str() << std::flush;
  return 0;
}

}  // namespace

// stk features "<FEN>" | stk features --batch FILE
int features_command(int argc, char** argv) {
  const char* usage = "usage: stk features \"<FEN>\" | stk features --batch FILE\n";
  std::string fen, batch;
  if (argc == 2 && !std::string(argv[1]).starts_with("--")) fen = argv[1];
  else if (argc == 3 && std::string(argv[1]) == "--batch") batch = argv[2];
  else return std::cerr << usage, 2;
  std::vector<Input> inputs;
  if (!read_inputs("features", fen, batch, inputs)) return 2;
  std::ostringstream o;
  for (const Input& in : inputs) {
    o << "{\"line\": " << in.line << ", \"fen\": \"" << json_escape(in.fen) << "\", \"white\": ";
    print_ints(o, nnue::active_features(in.pos, WHITE));
    o << ", \"black\": ";
    print_ints(o, nnue::active_features(in.pos, BLACK));
    o << "}\n";
  }
  std::cout << o.str() << std::flush;
  return 0;
}

// stk eval (--net FILE [--allow-trailing] [--impl scalar|avx2] | --classical)
//          ("<FEN>" | --batch FILE)
int eval_command(int argc, char** argv) {
  const char* usage =
      "usage: stk eval (--net FILE [--allow-trailing] [--impl scalar|avx2] | --classical) "
      "(\"<FEN>\" | --batch FILE)\n";
  std::string net_path, fen, batch, impl = nnue::kHasAvx2 ? "avx2" : "scalar";
  int nets = 0, classicals = 0, fens = 0, batches = 0, trailings = 0, impls = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--allow-trailing") ++trailings;
    else if (a == "--classical") ++classicals;
    else if (a == "--net" && i + 1 < argc) net_path = argv[++i], ++nets;
    else if (a == "--batch" && i + 1 < argc) batch = argv[++i], ++batches;
    else if (a == "--impl" && i + 1 < argc) impl = argv[++i], ++impls;
    else if (!a.starts_with("--")) fen = a, ++fens;
    else return std::cerr << "stk eval: unexpected argument '" << a << "'\n" << usage, 2;
  }
  // One mode and one input, each option once; --allow-trailing and --impl belong to --net.
  const bool classical = classicals == 1;
  if (nets + classicals != 1 || fens + batches != 1 || trailings > 1 || impls > 1 ||
      (classical && trailings + impls > 0))
    return std::cerr << usage, 2;
  const bool allow_trailing = trailings == 1;
  if (classical) {
    std::vector<Input> inputs;
    if (!read_inputs("eval", fen, batch, inputs)) return 2;
    return print_classical(inputs);
  }
  if (impl != "scalar" && impl != "avx2")
    return std::cerr << "stk eval: --impl must be scalar or avx2\n", 2;
  if (impl == "avx2" && !nnue::kHasAvx2)
    return std::cerr << "stk eval: this build has no AVX2 kernels (built without __AVX2__)\n", 2;
  std::string error;
  auto net = nnue::Network::load(net_path, allow_trailing, &error);
  if (!net) return std::cerr << "stk eval: " << error << "\n", 2;
  std::vector<Input> inputs;
  if (!read_inputs("eval", fen, batch, inputs)) return 2;
  std::ostringstream o;
  for (const Input& in : inputs) {
    nnue::EvalParts e = impl == "scalar" ? nnue::evaluate_refresh<nnue::Simd::Scalar>(*net, in.pos)
                                         : nnue::evaluate_refresh<nnue::kBestSimd>(*net, in.pos);
    o << "{\"line\": " << in.line << ", \"fen\": \"" << json_escape(in.fen)
      << "\", \"eval\": " << e.eval << ", \"bucket\": " << e.bucket << ", \"psqt\": " << e.psqt
      << ", \"positional\": " << e.positional << "}\n";
  }
  std::cout << o.str() << std::flush;
  return 0;
}

}  // namespace stk::tools
