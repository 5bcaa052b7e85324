// Facts about this build that every report records.
#pragma once

#include <string>

namespace stk::build_info {

std::string git_revision();
std::string build_type();
std::string cpu_features();  // compiled instruction set, plus what the running CPU offers
std::string harness_version();

}  // namespace stk::build_info
