#include "build_info.h"

#include "stk_git_revision.h"  // generated at every build by engine/cmake/GitRevision.cmake

namespace stk::build_info {

std::string git_revision() { return STK_GIT_REV; }
std::string build_type() { return STK_BUILD_TYPE; }
std::string harness_version() { return "0.1.0"; }

std::string cpu_features() {
  std::string s = std::string("compiled=") + STK_ARCH_NAME + " runtime=";
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  s += __builtin_cpu_supports("avx2") ? "avx2" : "no-avx2";
  s += __builtin_cpu_supports("bmi2") ? ",bmi2" : ",no-bmi2";
  s += __builtin_cpu_supports("avx512f") ? ",avx512f" : "";
#else
  s += "non-x86";
#endif
  return s;
}

}  // namespace stk::build_info
