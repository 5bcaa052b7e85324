// Names of CLI11's types, for headers that only pass them around: the whole of <CLI/CLI.hpp> is
// compiled only where options are declared or read (docs/build.md).
#pragma once

namespace CLI {
class App;
class Option;
class Validator;
}  // namespace CLI
