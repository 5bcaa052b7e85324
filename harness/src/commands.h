// One entry point per stk-harness command; each lives in harness/src/commands/<command>/, the
// folder named as the command (run_epd_compare in commands/epd-compare/, and so on).
#pragma once

namespace stk::harness {

// Each returns the process exit status: 0 all gates pass, 1 a gate failed, 2 usage/input error.
int run_perft(int argc, char** argv);
int run_perft_speed(int argc, char** argv);
int run_bench_harness(int argc, char** argv);  // commands/bench
int run_search_speed(int argc, char** argv);
int run_checknet(int argc, char** argv);
int run_makenet(int argc, char** argv);
int run_accumulator(int argc, char** argv);
int run_nnue_bench(int argc, char** argv);
int run_epd(int argc, char** argv);
int run_merge(int argc, char** argv);  // epd shard results (match result files: run_match_merge)
int run_epd_compare(int argc, char** argv);
int run_shadow(int argc, char** argv);
int run_datagen(int argc, char** argv);
int run_fhgen(int argc, char** argv);
int run_fhcollect(int argc, char** argv);
int run_fhdump(int argc, char** argv);
int run_ctest_junit(int argc, char** argv);
int run_uci_check(int argc, char** argv);
int run_sprt(int argc, char** argv);
int run_sprt_sim(int argc, char** argv);
int run_homogeneity_sim(int argc, char** argv);
int run_match(int argc, char** argv);
int run_match_merge(int argc, char** argv);
int run_compare(int argc, char** argv);
int run_bench_diff(int argc, char** argv);  // commands/bench-diff
int run_review(int argc, char** argv);
int run_history(int argc, char** argv);
int run_replay(int argc, char** argv);
int run_all(int argc, char** argv);

}  // namespace stk::harness
