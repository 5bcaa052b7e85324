#include "commands/review/review_svg.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "commands/review/review_page.h"

namespace stk::harness::review {

namespace {

constexpr double kW = 360, kH = 160, kPad = 28;

struct Scale {
  double lo, hi, px_lo, px_hi;
  double operator()(double v) const {
    return hi == lo ? (px_lo + px_hi) / 2 : px_lo + (v - lo) / (hi - lo) * (px_hi - px_lo);
  }
};

Scale y_scale(double lo, double hi) {
  if (!(hi > lo)) hi = lo + 1;
  return {lo, hi, kH - kPad, 8};
}

std::string open(const std::string& title) {
  return fmt::format(
      "<svg class=\"chart\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\"><title>{}</title>",
      kW, kH, kW, kH, html_escape(title));
}

std::string axis_labels(const Scale& y) {
  return fmt::format(
      "<text x=\"2\" y=\"{:.1f}\" class=\"ax\">{:.4g}</text><text x=\"2\" y=\"{:.1f}\" class=\"ax\">{:.4g}</text>"
      "<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" class=\"axis\"/>",
      y(y.hi) + 8, y.hi, y(y.lo), y.lo, kPad, y(y.lo), kW - 4, y(y.lo));
}

double logit(double p) {
  p = std::clamp(p, 1e-6, 1 - 1e-6);
  return std::log(p / (1 - p));
}

}  // namespace

std::string svg_bars(const std::vector<std::string>& labels, const std::vector<double>& values,
                     const std::string& title) {
  std::string s = open(title);
  const double top = values.empty() ? 1 : *std::max_element(values.begin(), values.end());
  const Scale y = y_scale(0, top);
  const double slot = (kW - kPad - 4) / std::max<std::size_t>(1, values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double x = kPad + i * slot;
    s += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" class=\"bar\"><title>{}: {:.4g}</title></rect>"
        "<text x=\"{:.1f}\" y=\"{}\" class=\"ax\">{}</text>",
        x + 1, y(values[i]), slot - 2, y(0) - y(values[i]), html_escape(labels[i]), values[i],
        x + 1, kH - 14, html_escape(labels[i]));
  }
  return s + axis_labels(y) + "</svg>";
}

std::string svg_intervals(const std::vector<std::string>& labels, const std::vector<double>& centre,
                          const std::vector<double>& lo, const std::vector<double>& hi,
                          const std::string& title) {
  std::string s = open(title);
  double a = 0, b = 0;
  for (std::size_t i = 0; i < centre.size(); ++i)
    a = std::min({a, lo[i], centre[i]}), b = std::max({b, hi[i], centre[i]});
  const Scale y = y_scale(a, b);
  const double slot = (kW - kPad - 4) / std::max<std::size_t>(1, centre.size());
  s += fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" class=\"zero\"/>", kPad,
                   y(0), kW - 4, y(0));
  for (std::size_t i = 0; i < centre.size(); ++i) {
    const double x = kPad + (i + 0.5) * slot;
    s += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" class=\"ci\"/>"
        "<circle cx=\"{0:.1f}\" cy=\"{3:.1f}\" r=\"3\" class=\"pt\"><title>{4}: {5:.4g} [{6:.4g}, {7:.4g}]</title></circle>"
        "<text x=\"{8:.1f}\" y=\"{9}\" class=\"ax\">{4}</text>",
        x, y(lo[i]), y(hi[i]), y(centre[i]), html_escape(labels[i]), centre[i], lo[i], hi[i],
        x - slot / 2 + 2, kH - 14);
  }
  return s + axis_labels(y) + "</svg>";
}

std::string svg_reliability(const std::vector<double>& predicted,
                            const std::vector<double>& realized, const std::vector<double>& lo,
                            const std::vector<double>& hi, const std::string& title) {
  std::string s = open(title);
  double a = 0, b = 0;
  for (std::size_t i = 0; i < predicted.size(); ++i) {
    for (double v : {logit(predicted[i]), logit(lo[i]), logit(hi[i])})
      a = std::min(a, v), b = std::max(b, v);
  }
  if (!predicted.empty()) a = std::min(a, logit(predicted[0])), b = std::max(b, 0.0);
  const Scale y = y_scale(a, b);
  const Scale x{a, b, kPad, kW - 4};
  s += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" class=\"zero\"/>",
                   x(a), y(a), x(b), y(b));
  for (std::size_t i = 0; i < predicted.size(); ++i) {
    const double px = x(logit(predicted[i]));
    s += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" class=\"ci\"/>"
        "<circle cx=\"{0:.1f}\" cy=\"{3:.1f}\" r=\"3\" class=\"pt\"><title>decile {4}: predicted {5:.4g}, realized {6:.4g}</title></circle>",
        px, y(logit(lo[i])), y(logit(hi[i])), y(logit(realized[i])), i, predicted[i], realized[i]);
  }
  s += fmt::format(
      "<text x=\"{}\" y=\"{}\" class=\"ax\">log-odds: predicted (x) vs realized (y)</text>",
      kPad + 4, kH - 4);
  return s + "</svg>";
}

std::string svg_line(const std::vector<std::string>& labels, const std::vector<double>& values,
                     const std::string& title) {
  std::string s = open(title);
  if (values.empty()) return s + "</svg>";
  const auto [mn, mx] = std::minmax_element(values.begin(), values.end());
  const Scale y = y_scale(*mn, *mx);
  const Scale x{0, double(std::max<std::size_t>(1, values.size() - 1)), kPad + 4, kW - 8};
  std::string path;
  for (std::size_t i = 0; i < values.size(); ++i)
    path += fmt::format("{}{:.1f},{:.1f}", i ? " " : "", x(i), y(values[i]));
  s += fmt::format("<polyline points=\"{}\" class=\"line\"/>", path);
  for (std::size_t i = 0; i < values.size(); ++i)
    s += fmt::format(
        "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.5\" class=\"pt\"><title>{}: {:.6g}</title></circle>",
        x(i), y(values[i]), html_escape(labels[i]), values[i]);
  return s + axis_labels(y) + "</svg>";
}

}  // namespace stk::harness::review
