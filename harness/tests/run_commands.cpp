// test::run_commands (cli_support.h): <thread> stays out of the header every test includes.
#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

#include "cli_support.h"

namespace stk::test {

std::vector<RunResult> run_commands(const std::vector<std::string>& cmds, std::size_t at_once) {
  std::vector<RunResult> out(cmds.size());
  std::vector<std::exception_ptr> thrown(cmds.size());
  std::atomic<std::size_t> next{0};
  // Each worker takes the next command when its last is done: a slow run holds one worker only.
  const auto work = [&] {
    for (std::size_t i = next++; i < cmds.size(); i = next++) {
      try {
        out[i] = run_command(cmds[i]);
      } catch (...) {
        thrown[i] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> workers;
  for (std::size_t w = 0; w < std::min(std::max<std::size_t>(at_once, 1), cmds.size()); ++w)
    workers.emplace_back(work);
  for (auto& t : workers) t.join();
  for (const auto& e : thrown)
    if (e) std::rethrow_exception(e);
  return out;
}

}  // namespace stk::test
