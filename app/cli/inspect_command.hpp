#pragma once
// `pe-viz inspect`: what a model's configuration says about its positions — every positional
// key and how it was used (or defaulted, ignored, misspelt, contradicted), the per-layer plan,
// and what transformers, vLLM and llama.cpp each compute from it — as text or --json.
//
//   pe-viz inspect --preset gemma-3-27b
//   pe-viz inspect --config path/to/config.json --length 200000 --json
//   pe-viz inspect --model Qwen/Qwen3-8B              (the local Hugging Face cache, offline)
//   pe-viz inspect --gguf model.gguf --config config.json   (and the conversion between them)
//
// Exit codes: 0 inspected (warnings included), 1 the configuration has errors (they are
// printed), 2 bad command line.
#include <iosfwd>
#include <string>

#include "pe/models/config_diagnostics.hpp"
#include "state/model_inspection.hpp"

namespace app {

struct InspectOptions {
  long long length = 0;   // current length for the framework comparison; 0: max_position_embeddings
  bool json = false;
  bool all_layers = false;  // one line per layer instead of groups
};

// Prints one inspected source (a GGUF's positional keys and, with the config.json it came
// from, the conversion check after the configuration). Returns the exit code (0, or 1 when
// invalid).
int print_inspection(const ModelInspection& inspection, const InspectOptions& options, std::ostream& out, std::ostream& err);

// The text and JSON documents print_inspection writes (for tests).
std::string inspection_text(const pe::InspectedConfig& inspected, const InspectOptions& options);
std::string inspection_json(const pe::InspectedConfig& inspected, const InspectOptions& options);
// The GGUF and conversion sections ("" for other sources), as text and as JSON members.
std::string source_sections_text(const ModelInspection& inspection);

// argv[0] is "inspect". Writes to std::cout / std::cerr.
int run_inspect_command(int argc, char** argv);
int run_inspect_command(int argc, char** argv, std::ostream& out, std::ostream& err);

}  // namespace app
