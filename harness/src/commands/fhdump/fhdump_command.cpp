// stk-harness fhdump: the C++ reader of fail-high record files, printing records as JSON lines
// (the Python reader, stkref.fhrecords, prints the same).
#include <cstdint>
#include <iostream>
#include <memory>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/cli.h"
#include "cli/cli_owed_reports.h"
#include "commands.h"
#include "fail_high/model_option.h"
#include "fail_high/record_file.h"
#include "report/run_report.h"
#include "search/fhmodel.h"

namespace stk::harness {

namespace {

using fhcollect::Record;
namespace fh = search::fh;

}  // namespace

int run_fhdump(int argc, char** argv) {
  CLI::App app{
      "Prints one JSON object per record of a .fhr file (byte offset, fields, the 28 features; with --model\n"
      "the model's prediction recomputed in C++).",
      "stk-harness fhdump"};
  std::string file, model_path;
  app.add_option("FILE", file, "record file (.fhr)")->required();
  app.add_option("--model", model_path, "model whose prediction is added as model_prediction");
  if (auto status = parse_cli_or_report(app, argc, argv)) return *status;
  try {
    const std::unique_ptr<fh::Model> model = fhcollect::model_option(model_path);
    for (const Record& r : fhcollect::read_records(file)) {
      std::int32_t f[fh::kFeatureCount];
      fh::features(r.in, f);
      report::Json line = {{"offset", r.offset},
                           {"position_id", r.position_id},
                           {"node_id", r.node_id},
                           {"side", int(r.in.side)},
                           {"whole_node", int(r.in.whole_node)},
                           {"label", int(r.label)},
                           {"improving", int(r.in.improving)},
                           {"opp_improving", int(r.in.opp_improving)},
                           {"cut_node", int(r.in.cut_node)},
                           {"black", int(r.black)},
                           {"depth", r.in.depth},
                           {"ply", r.ply},
                           {"gap", r.in.gap},
                           {"tier", int(r.in.tier)},
                           {"ordinal", r.in.ordinal},
                           {"legal", r.in.legal},
                           {"good_captures", r.in.good_captures},
                           {"move_value", r.in.move_value},
                           {"fh_cuts", r.in.fh_cuts},
                           {"fh_tries", r.in.fh_tries},
                           {"phase", r.in.phase},
                           {"prediction", r.prediction},
                           {"weight", r.weight},
                           {"static_eval", r.static_eval},
                           {"features", std::vector<std::int32_t>(f, f + fh::kFeatureCount)}};
      if (model) line["model_prediction"] = model->predict(r.in);
      std::cout << line.dump() << "\n";
    }
    return 0;
  } catch (...) {
    return input_failure("stk-harness fhdump", app.help().c_str());
  }
}

}  // namespace stk::harness
