// CTest's --output-junit file in the project's JUnit form (HARNESS.md): CTest writes attributes
// the schema forbids ('disabled', 'status'), omits 'errors', and reports a test it could not
// start ("Unable to find executable", a failed fixture) as skipped.
#pragma once

#include <string>

#include "report/junit.h"

namespace stk::harness {

// One suite "ctest.<label>", every test in class "ctest.<label>": status "run" passes, "fail"
// fails, "disabled" and a requested skip (SKIP_RETURN_CODE, SKIP_REGULAR_EXPRESSION) are skipped
// with the reason, any other "notrun" is an error. Throws InputError for XML that is not a
// CTest report.
junit::TestSuite ctest_suite(const std::string& xml, const std::string& label);

}  // namespace stk::harness
