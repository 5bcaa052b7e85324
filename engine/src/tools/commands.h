// Command-line tools of the stk binary (besides the UCI loop), one file per command family.
#pragma once

namespace stk::tools {

// Each returns the process exit status: 0 success, 1 a check failed, 2 usage or input error.
int perft_command(int argc, char** argv);
int bench_command(int argc, char** argv);
int features_command(int argc, char** argv);  // nnue_commands.cpp
int eval_command(int argc, char** argv);      // nnue_commands.cpp
int game_command(int argc, char** argv);      // game_command.cpp

}  // namespace stk::tools
