// The pull-request summary (`stk-harness review --markdown FILE`): the verdict, the steps that did
// not pass, the changes against the base and the previous run, and the failing testcases, in a
// few dozen lines of GitHub-flavoured Markdown ($GITHUB_STEP_SUMMARY, a GitLab merge-request note).
#pragma once

#include <string>

#include "commands/review/review_inputs.h"
#include "commands/review/review_page.h"

namespace stk::harness::review {

// At most kMarkdownItems lines in each list; the rest are counted ("... and 12 more").
inline constexpr int kMarkdownItems = 10;

std::string render_markdown(const ReviewData& data, const PageContext& ctx);

}  // namespace stk::harness::review
