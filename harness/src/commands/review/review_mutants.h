// The review page's Mutants section: planted defects (ci/check-mutants.sh, reports/mutants/) and
// generated mutants (ci/mutation.sh, reports/mutation/) in the one format they share
// (stkmutation.report): the per-module table, then each survivor beside its diff hunk.
#pragma once

#include <string>

#include "commands/review/review_inputs.h"
#include "commands/review/review_page.h"

namespace stk::harness::review {

std::string mutants_section(const ReviewData& data, const PageContext& ctx);

}  // namespace stk::harness::review
