// The review page: one static HTML file (inline CSS, relative links to the reports it summarises,
// charts drawn by the harnesses with matplotlib) that opens from disk with nothing fetched. It
// opens with the verdict and what changed, then one designed section per harness
// (docs/review.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "commands/history/history.h"
#include "commands/review/review_changes.h"
#include "commands/review/review_inputs.h"

namespace stk::harness::review {

struct PageContext {
  std::string
      link_prefix;       // from the page's directory to the reports directory ("" or "../reports/")
  std::string revision;  // of the harness that wrote the page
  std::vector<HistoryRow> history;
  std::string history_source;          // the database, as linked ("" when none)
  std::optional<Comparison> previous;  // against the previous run in the history
  std::optional<Comparison> base;      // against the base revision (a pre-merge run)
};

std::string render_page(const ReviewData& data, const PageContext& ctx);

// Text for HTML element content and attribute values.
std::string html_escape(const std::string& text);

// A link to a file under the reports directory.
std::string report_link(const PageContext& ctx, const std::string& rel,
                        const std::string& text = "");

// A number shown with the JSON value it came from: the browser test reads it back through
// data-src/data-ptr.
std::string figure_span(const Figure& f);

// The harness sections: one designed table per harness (and its charts), in `order`.
std::string harness_sections(const ReviewData& data, const PageContext& ctx,
                             const std::vector<std::string>& order);

// The calibration harness's tables (slices, deciles, search decisions) with gate margins.
std::string calibration_tables(const ReviewData& data, const PageContext& ctx);

}  // namespace stk::harness::review
