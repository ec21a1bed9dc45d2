#pragma once
// `pe-viz weights`: which rotary frequencies a trained model's q/k weights use (issue 26).
// Reads only the q and k projections (memory-mapped safetensors or GGUF) and prints, per
// layer, the share of the q·k weight w_j = Σ_h ‖q_h,j‖·‖k_g(h),j‖ that falls in the fastest,
// middle and slowest quarter of the rotary pairs, and the pairs whose wavelength exceeds the
// training context; --json the per-head, per-pair norms; --csv FILE one row per (layer, kind,
// head, pair).
//
//   pe-viz weights --model path/to/model-folder
//   pe-viz weights --model meta-llama/Llama-3.1-8B --json > usage.json   (the local HF cache, offline)
//   pe-viz weights --gguf model.Q4_K_M.gguf --csv usage.csv --layer 12
//
// Exit codes: 0 read, 1 the weights could not be read (the message names file and tensor),
// 2 bad command line.
#include <iosfwd>
#include <string>

#include "state/weights_usage.hpp"

namespace app {

// The documents the command prints (for tests).
std::string weights_text(const WeightsUsage& usage, bool per_head);
std::string weights_json(const WeightsUsage& usage);

// argv[0] is "weights". Writes to std::cout / std::cerr.
int run_weights_command(int argc, char** argv);
int run_weights_command(int argc, char** argv, std::ostream& out, std::ostream& err);

}  // namespace app
