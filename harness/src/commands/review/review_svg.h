// Small inline SVG charts for the review page (no script, no external file).
#pragma once

#include <string>
#include <vector>

namespace stk::harness::review {

// Vertical bars, one per label.
std::string svg_bars(const std::vector<std::string>& labels, const std::vector<double>& values,
                     const std::string& title);

// Points with intervals (centre, lo, hi) per label, a zero line when 0 is in range.
std::string svg_intervals(const std::vector<std::string>& labels, const std::vector<double>& centre,
                          const std::vector<double>& lo, const std::vector<double>& hi,
                          const std::string& title);

// Reliability diagram in log-odds: mean prediction (x) vs realized rate (y) with its interval, and the diagonal.
std::string svg_reliability(const std::vector<double>& predicted,
                            const std::vector<double>& realized, const std::vector<double>& lo,
                            const std::vector<double>& hi, const std::string& title);

// A line through values in order (one per revision), each point titled with its label.
std::string svg_line(const std::vector<std::string>& labels, const std::vector<double>& values,
                     const std::string& title);

}  // namespace stk::harness::review
