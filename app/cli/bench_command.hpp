#pragma once
namespace app {
// `pe-viz bench`: frame times while θ sweeps, for the teaching preset, (L = 131072, d = 128)
// and (L = 10^6, d = 256), or --length/--dim. Prints median and 95th percentile per view and
// config. --soak N: N frames of the whole GUI under a scripted driver, RSS and GL errors
// (cli/soak_driver.hpp).
int run_bench_command(int argc, char** argv);
}  // namespace app
