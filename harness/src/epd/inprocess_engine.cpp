// EngineDriver over the engine built into this binary. Placeholder until the search links.
#include <stdexcept>

#include "common/cli.h"
#include "epd/engine_driver.h"

namespace stk::harness::epd {

std::unique_ptr<EngineDriver> make_inprocess_engine(
    std::size_t, const std::vector<std::pair<std::string, std::string>>&) {
  throw InputError("the in-process search is not built into this binary yet: use --engine PATH");
}

}  // namespace stk::harness::epd
