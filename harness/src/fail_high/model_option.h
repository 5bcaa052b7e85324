// --model FILE of fhcollect and fhdump: a fail-high model file loaded, or the built-in one.
#pragma once

#include <memory>
#include <string>

#include "cli/cli.h"
#include "search/fhmodel.h"

namespace stk::harness::fhcollect {

// --model FILE: a loaded model, or null (the built-in one) when `path` is empty. A bad file is an
// input error.
inline std::unique_ptr<search::fh::Model> model_option(const std::string& path) {
  if (path.empty()) return nullptr;
  try {
    return std::make_unique<search::fh::Model>(search::fh::Model::load_file(path));
  } catch (const search::fh::ModelError& e) {
    throw InputError(e.what());
  }
}

}  // namespace stk::harness::fhcollect
