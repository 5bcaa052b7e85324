#include "commands/shadow/shadow_gates.h"

#include <algorithm>

#include "cli/cli.h"

namespace stk::harness::shadow {

int parse_mechanism(const std::string& option, const std::string& name) {
  for (int i = 0; i < search::kMechanismCount; ++i)
    if (name == search::mechanism_name(Mechanism(i))) return i;
  throw UsageError(option + ": unknown mechanism '" + name + "'");
}

BandGate parse_band_gate(const std::string& option, const std::string& t) {
  BandGate g;
  g.text = t;
  const auto eq = t.find('=');
  if (eq == std::string::npos)
    throw UsageError(option + " needs [MECH:]BAND=VALUE, got '" + t + "'");
  std::string band = t.substr(0, eq);
  const auto colon = band.find(':');
  if (colon != std::string::npos) {
    g.mech = parse_mechanism(option, band.substr(0, colon));
    band = band.substr(colon + 1);
  }
  try {
    std::size_t used = 0;
    const auto dash = band.find('-');
    if (!band.empty() && band.back() == '+') {
      g.lo = std::stoi(band.substr(0, band.size() - 1), &used);
      if (used != band.size() - 1) throw UsageError("");
    } else if (dash != std::string::npos) {
      g.lo = std::stoi(band.substr(0, dash));
      g.hi = std::stoi(band.substr(dash + 1));
    } else {
      g.lo = g.hi = std::stoi(band, &used);
      if (used != band.size()) throw UsageError("");
    }
    const std::string value = t.substr(eq + 1);
    g.value = std::stod(value, &used);
    if (used != value.size()) throw UsageError("");
  } catch (const std::exception&) {
    throw UsageError(option + ": cannot read '" + t + "'");
  }
  g.hi = std::min(g.hi, kDepthCells - 1);
  if (g.lo < 0 || g.lo > g.hi || g.value < -1 || g.value > 1)
    throw UsageError(option + ": bad band or value in '" + t + "'");
  return g;
}

bool excess_gate_fails(const Excess& e, double max) {
  return (e.n1 > 0 && e.n2 == 0) || (e.defined() && e.bootstrap.lo > max);
}

bool control_gate_fails(const Excess& e, double max) {
  return (e.n1 > 0 && e.n2 == 0) || (e.n2 > 0 && e.control_wilson.lo > max);
}

bool sensitivity_gate_fails(const Excess& e) { return !e.defined() || e.bootstrap.lo <= 0; }

std::vector<ClusterCounts> band_clusters(const std::vector<Counts>& per_position, Mechanism m,
                                         int lo, int hi) {
  std::vector<ClusterCounts> out;
  out.reserve(per_position.size());
  for (const Counts& c : per_position) {
    ClusterCounts x;
    for (int d = lo; d <= hi; ++d) {
      const Cell& a = c.decisions[int(m)][d];
      const ControlCell& b = c.controls[int(control_of(m))][d];
      x.k1 += a.misses, x.n1 += a.audited, x.k2 += b.hits, x.n2 += b.audited;
    }
    out.push_back(x);
  }
  return out;
}

}  // namespace stk::harness::shadow
