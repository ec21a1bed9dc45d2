#pragma once
namespace app {
// `pe-viz bench`: frame times while θ sweeps, for the teaching preset, (L = 131072, d = 128)
// and (L = 10^6, d = 256). Prints median and 95th percentile per view and config.
int run_bench_command(int argc, char** argv);
}  // namespace app
