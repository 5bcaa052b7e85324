// Independent models of cli/: the safe-name rule and the out-dir containment of file names
// (docs/faults.md, "Names are not paths"), and the --shard K/N rule (docs/faults.md, "Shards").
#include <catch2/catch.hpp>
#include <rapidcheck.h>
#include <rapidcheck/catch.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli/file_names.h"

// One namespace per file: the tests build in unity batches, where a using-directive or helper
// name of one file would otherwise reach the next.
namespace cli_model_test {

using namespace stk::harness;

namespace {

bool model_safe_name(const std::string& s) {
  if (s.size() < 1 || s.size() > 200) return false;
  if (s[0] == '.' || s[0] == '-') return false;
  for (std::size_t i = 0; i + 1 < s.size(); ++i)
    if (s[i] == '.' && s[i + 1] == '.') return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) && static_cast<unsigned char>(c) < 128) &&
        c != '.' && c != '_' && c != '-')
      return false;
  return true;
}

// A path's components after lexical normalisation ("." dropped, ".." pops, "/.." stays at root),
// made absolute against `cwd` first.
std::vector<std::string> model_components(const std::string& path, const std::string& cwd) {
  const std::string full = !path.empty() && path[0] == '/' ? path : cwd + "/" + path;
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i <= full.size()) {
    const std::size_t j = std::min(full.find('/', i), full.size());
    const std::string part = full.substr(i, j - i);
    if (part == "..") {
      if (!out.empty()) out.pop_back();
    } else if (!part.empty() && part != ".") {
      out.push_back(part);
    }
    i = j + 1;
  }
  return out;
}

bool model_under(const std::string& out_dir, const std::string& path, const std::string& cwd) {
  const auto base = model_components(out_dir.empty() ? "." : out_dir, cwd);
  const auto p = model_components(path, cwd);
  if (p.size() <= base.size()) return false;
  return std::equal(base.begin(), base.end(), p.begin());
}

std::optional<std::pair<int, int>> model_shard(const std::string& t) {
  const auto slash = t.find('/');
  if (slash == std::string::npos) return std::nullopt;
  const std::string k = t.substr(0, slash), n = t.substr(slash + 1);
  auto number = [](const std::string& s) -> std::optional<long long> {
    if (s.empty() || s.size() > 9) return std::nullopt;
    for (char c : s)
      if (c < '0' || c > '9') return std::nullopt;
    return std::stoll(s);
  };
  const auto kk = number(k), nn = number(n);
  if (!kk || !nn || *kk < 1 || *kk > *nn) return std::nullopt;
  return std::make_pair(int(*kk), int(*nn));
}

std::optional<std::pair<int, int>> code_shard(const std::string& t) {
  try {
    const Shard s = parse_shard(t);
    return std::make_pair(s.index, s.count);
  } catch (const UsageError&) {
    return std::nullopt;
  }
}

}  // namespace

// MODEL cli-safe-name
// checks: harness/src/cli/file_names.cpp  (which names may become parts of file names, and how a refused one is quoted)
// contract: docs/faults.md#names-are-not-paths
// planted: ci/mutants/model-cli-safe-name.patch  (a name starting with '-' accepted)
TEST_CASE("is_safe_name and require_safe_name agree with a model of the name rule",
          "[model][cli]") {
  rc::prop("generated names near the rule's edges", [] {
    const auto body = *rc::gen::container<std::string>(
        rc::gen::elementOf(std::string("aZ9._-/ ~\x01\x1f\x7f\xc3")));
    const auto pad = *rc::gen::elementOf(std::vector<std::size_t>{0, 0, 0, 195, 199, 200});
    const std::string name = std::string(pad, 'x') + body;
    const bool safe = model_safe_name(name);
    RC_ASSERT(is_safe_name(name) == safe);
    bool refused = false;
    try {
      require_safe_name("--config", name);
    } catch (const UsageError& e) {
      refused = true;
      // The message quotes the value as given, a byte outside printable ASCII as '?'.
      std::string shown;
      for (const unsigned char c : name) shown.push_back(c >= 0x20 && c <= 0x7e ? char(c) : '?');
      RC_ASSERT(std::string(e.what()).rfind("--config '" + shown + "': not a name", 0) == 0);
    }
    RC_ASSERT(refused == !safe);
  });
  // Both ways, by the smallest margin.
  CHECK(is_safe_name(std::string(200, 'a')));
  CHECK_FALSE(is_safe_name(std::string(201, 'a')));
  CHECK(is_safe_name("a"));
  CHECK_FALSE(is_safe_name(""));
  CHECK(is_safe_name("a.b"));
  CHECK_FALSE(is_safe_name("a..b"));
  CHECK(is_safe_name("a-"));
  CHECK_FALSE(is_safe_name("-a"));
  CHECK(is_safe_name("a."));
  CHECK_FALSE(is_safe_name(".a"));
}

// MODEL cli-under-out-dir
// checks: harness/src/cli/file_names.cpp  (a report path stays strictly under --out-dir)
// contract: docs/faults.md#names-are-not-paths
// planted: ci/mutants/model-cli-under-out-dir.patch  (the out-dir itself taken as under it)
TEST_CASE("require_under_out_dir agrees with a lexical model of containment", "[model][cli]") {
  const std::string cwd = std::filesystem::current_path().string();
  rc::prop("generated relative and absolute paths", [cwd] {
    auto gen_path =
        rc::gen::map(rc::gen::pair(rc::gen::arbitrary<bool>(),
                                   rc::gen::container<std::vector<std::string>>(rc::gen::elementOf(
                                       std::vector<std::string>{"a", "b", "..", ".", ""}))),
                     [cwd](const std::pair<bool, std::vector<std::string>>& p) {
                       std::string s = p.first ? cwd + "/" : "";
                       for (std::size_t i = 0; i < p.second.size(); ++i)
                         s += (i ? "/" : "") + p.second[i];
                       return s;
                     });
    const auto out_dir = *gen_path;
    const auto path = *gen_path;
    RC_PRE(!path.empty());
    bool refused = false;
    try {
      require_under_out_dir(out_dir, path);
    } catch (const InputError&) {
      refused = true;
    }
    RC_ASSERT(refused == !model_under(out_dir, path, cwd));
  });
  CHECK_NOTHROW(require_under_out_dir("reports", "reports/x.xml"));
  CHECK_THROWS_AS(require_under_out_dir("reports", "reports"), InputError);
  CHECK_THROWS_AS(require_under_out_dir("reports", "reports/x/../../y"), InputError);
  CHECK_NOTHROW(require_under_out_dir("reports", "reports/x/../y"));
}

// MODEL cli-shard-parse
// checks: harness/src/cli/cli.cpp  (--shard K/N: which texts are shards, and which items each takes)
// contract: docs/faults.md#shards
// planted: ci/mutants/model-cli-shard-parse.patch  (K = N + 1 accepted)
TEST_CASE("parse_shard and Shard::takes agree with a model of K/N", "[model][cli]") {
  rc::prop("generated shard texts", [] {
    const auto text = *rc::gen::container<std::string>(
        rc::gen::elementOf(std::string("0123459/ +-x")));
    RC_ASSERT(code_shard(text) == model_shard(text));
  });
  rc::prop("the shards 1..N of one N partition the items, K-1 mod N", [] {
    const int n = *rc::gen::inRange(1, 12);
    const auto item = *rc::gen::inRange<std::size_t>(0, 1000);
    int takers = 0;
    for (int k = 1; k <= n; ++k) {
      const Shard s = parse_shard(std::to_string(k) + "/" + std::to_string(n));
      if (s.takes(item)) {
        ++takers;
        RC_ASSERT(item % std::size_t(n) == std::size_t(k - 1));
      }
    }
    RC_ASSERT(takers == 1);
  });
  CHECK(code_shard("3/3") == std::make_pair(3, 3));
  CHECK_FALSE(code_shard("4/3"));
  CHECK(code_shard("1/1") == std::make_pair(1, 1));
  CHECK_FALSE(code_shard("0/1"));
  CHECK_FALSE(code_shard("+1/2"));
  CHECK_FALSE(code_shard(" 1/2"));
}

}  // namespace cli_model_test
