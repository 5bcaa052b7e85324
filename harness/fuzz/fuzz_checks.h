// The checks behind the libFuzzer targets (fuzz_main.cpp) and the regression test that replays
// harness/fuzz/corpus/ and harness/fuzz/regressions/ in the normal build (fuzz_regression_test.cpp).
// Each takes one arbitrary input, drives a real parser entry point with it and throws CheckFailure
// when a promise of that parser breaks; the sanitizers catch memory and UB errors on the way.
// Rejections the parser is allowed to make (its own error type, with the location) are not failures.
// Each returns whether the input got past the parser into the deeper checks (the seed corpus
// must hold both kinds, see fuzz_regression_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace stk::fuzz {

struct CheckFailure : std::logic_error {
  using std::logic_error::logic_error;
};

using CheckFn = bool (*)(const std::uint8_t* data, std::size_t size);

// Position::set (both counter modes): accepted positions are is_ok, round-trip through fen(),
// survive a short walk of legal make/unmake; a rejected FEN leaves the position unchanged.
// Past the parser: the strict (six-field) parse accepted it.
bool check_fen(const std::uint8_t* data, std::size_t size);
// harness epd::parse_epd_line: errors name "file:line:"; accepted bm/am moves are legal and
// their SAN parses back to the same move. Past the parser: the line was accepted.
bool check_epd(const std::uint8_t* data, std::size_t size);
// stk::uci_loop on the input's lines, made cheap and local (see check_uci.cpp): every isready
// is answered exactly once, every bestmove is a well-formed move. Past the parser: a search ran.
bool check_uci(const std::uint8_t* data, std::size_t size);
// nnue::Network::parse / Searcher::load_network: a raw file image, or patches over a valid H=128
// image (see check_netfile.cpp); a failed load names the file and keeps the active net; a parsed
// net evaluates identically with the scalar and the SIMD kernels, incrementally and by refresh.
// Past the parser: a net was loaded and evaluated.
bool check_netfile(const std::uint8_t* data, std::size_t size);
// harness fhcollect::parse_records: errors name "name: byte N:" inside the input; accepted
// files re-encode byte for byte. Past the parser: the file was accepted.
bool check_fhr(const std::uint8_t* data, std::size_t size);

struct Target {
  const char* name;  // also the folder name under corpus/ and regressions/
  CheckFn check;
};
const std::vector<Target>& targets();

// Throws CheckFailure(what) unless ok.
void require(bool ok, const std::string& what);
// The regular files of a corpus folder in name order, dot files left out (a missing folder has
// none), and a file's bytes: what the corpus replays read (fuzz_regression_test.cpp,
// engine_corpus_test.cpp).
std::vector<std::string> corpus_files(const std::string& dir);
std::string file_bytes(const std::string& path);
// A file `name` in this process's scratch folder (created on first use, removed at exit), holding
// `content`; returns its path.
std::string scratch_file(const std::string& name, const std::string& content);

}  // namespace stk::fuzz
