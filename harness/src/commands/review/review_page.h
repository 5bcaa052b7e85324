// The review page: one static HTML file (inline CSS, inline SVG charts, relative links to the
// reports it summarises) that opens from disk with nothing fetched.
#pragma once

#include <string>
#include <vector>

#include "commands/review/review_inputs.h"

namespace stk::harness::review {

// One figure across runs of `stk-harness all` (oldest first), from reports/history.sqlite.
struct Series {
  std::string key;
  struct Point {
    std::string revision, date, tier;
    double value;
  };
  std::vector<Point> points;
};

struct PageContext {
  std::string
      link_prefix;       // from the page's directory to the reports directory ("" or "../reports/")
  std::string revision;  // of the harness that wrote the page
  std::vector<Series> history;
  std::string history_source;  // the database, as linked ("" when none)
};

std::string render_page(const ReviewData& data, const PageContext& ctx);

// Text for HTML element content and attribute values.
std::string html_escape(const std::string& text);

}  // namespace stk::harness::review
