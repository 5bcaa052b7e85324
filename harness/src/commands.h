// One entry point per harness; each lives in its own folder under harness/src.
#pragma once

namespace stk::harness {

// Each returns the process exit status: 0 all gates pass, 1 a gate failed, 2 usage/input error.
int run_perft(int argc, char** argv);
int run_checknet(int argc, char** argv);     // checknet/checknet_command.cpp
int run_makenet(int argc, char** argv);      // checknet/checknet_command.cpp
int run_accumulator(int argc, char** argv);  // accumulator/accumulator_harness.cpp
int run_nnue_bench(int argc, char** argv);   // accumulator/nnue_bench.cpp
int run_all(int argc, char** argv);
int run_perft_speed(int argc, char** argv);
int run_bench_harness(int argc, char** argv);  // bench/bench_harness.cpp
int run_search_speed(int argc, char** argv);   // bench/search_speed.cpp
int run_epd(int argc, char** argv);          // epd/epd_harness.cpp
int run_merge(int argc, char** argv);        // epd/epd_harness.cpp (epd shard results)
int run_epd_compare(int argc, char** argv);  // epd/epd_harness.cpp
int run_shadow(int argc, char** argv);       // shadow/shadow_harness.cpp
int run_fhgen(int argc, char** argv);        // fhgen/fhgen_command.cpp
int run_fhcollect(int argc, char** argv);    // fhcollect/fhcollect_command.cpp
int run_fhdump(int argc, char** argv);       // fhcollect/fhcollect_command.cpp
int run_ctest_junit(int argc, char** argv);  // ctest_junit/ctest_junit_command.cpp
int run_uci_check(int argc, char** argv);    // ucicheck/ucicheck_command.cpp
int run_sprt(int argc, char** argv);         // match/sprt_command.cpp
int run_sprt_sim(int argc, char** argv);     // match/sprt_sim_command.cpp
int run_match_merge(int argc, char** argv);  // match/match_merge_command.cpp
int run_review(int argc, char** argv);       // review/review_command.cpp
int run_history(int argc, char** argv);      // review/review_command.cpp
int run_match(int argc, char** argv);        // selfplay/match_command.cpp
int run_compare(int argc, char** argv);      // compare/compare_command.cpp

}  // namespace stk::harness
