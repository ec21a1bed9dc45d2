#pragma once
// `pe-viz inspect`: what a model's configuration says about its positions — every positional
// key and how it was used (or defaulted, ignored, misspelt, contradicted), the per-layer plan,
// and what transformers, vLLM and llama.cpp each compute from it — as text or --json.
//
//   pe-viz inspect --preset gemma-3-27b
//   pe-viz inspect --config path/to/config.json --length 200000 --json
//
// Exit codes: 0 inspected (warnings included), 1 the configuration has errors (they are
// printed), 2 bad command line.
#include <iosfwd>
#include <string>

#include "pe/config_diagnostics.hpp"

namespace app {

struct InspectOptions {
  long long length = 0;   // current length for the framework comparison; 0: max_position_embeddings
  bool json = false;
  bool all_layers = false;  // one line per layer instead of groups
};

// Prints one inspected configuration. This is the hook for other sources: the HF-cache
// (--model) and GGUF (--gguf) readers produce a pe::LoadedConfig; pass
// pe::inspect_loaded(loaded, "<source>") here. Returns the exit code (0, or 1 when invalid).
int print_inspection(const pe::InspectedConfig& inspected, const InspectOptions& options, std::ostream& out,
                     std::ostream& err);

// The text and JSON documents print_inspection writes (for tests).
std::string inspection_text(const pe::InspectedConfig& inspected, const InspectOptions& options);
std::string inspection_json(const pe::InspectedConfig& inspected, const InspectOptions& options);

// argv[0] is "inspect". Writes to std::cout / std::cerr.
int run_inspect_command(int argc, char** argv);
int run_inspect_command(int argc, char** argv, std::ostream& out, std::ostream& err);

}  // namespace app
