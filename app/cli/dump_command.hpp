#pragma once
// `pe-viz dump`: a configuration's RoPE frequencies as JSON, no window needed.
//
//   pe-viz dump --preset llama-3.1-8b
//   pe-viz dump --config path/to/config.json --length 65536 --rows 4
//   pe-viz dump --preset teaching --scaling yarn --factor 4 --original-max-position-embeddings 64
//   pe-viz dump --list-presets
//   pe-viz dump --model meta-llama/Llama-3.1-8B      (offline, from the Hugging Face cache)
//   pe-viz dump --gguf Meta-Llama-3.1-8B-Q4_K_M.gguf  (adds "rope_mode": llama.cpp's pairing)
//   pe-viz dump --preset qwen2.5-vl-7b --prompt "text:5,image:1x8x12,text:3,video:4x8x8" --sample-fps 2
//   pe-viz dump --preset qwen2-vl-7b --tower vision
//
// Exit codes: 0 success, 1 bad input (unreadable or invalid config, invalid parameter
// values), 2 bad command line. Errors go to stderr, JSON to stdout.
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "pe/models/diagnostics.hpp"
#include "pe/multimodal/multimodal.hpp"
#include "pe/scaling/scaling.hpp"

// argv[0] is "dump". Writes to std::cout / std::cerr.
int run_dump_command(int argc, char** argv);

// Same, with the streams given (for tests).
int run_dump_command(int argc, char** argv, std::ostream& out, std::ostream& err);

namespace app {

// The JSON document `dump` prints for `config` at sequence length `length` (the current
// length dynamic NTK and LongRoPE depend on), with the first `rows` rows of the cos/sin
// tables when rows > 0. Throws pe::InvalidArgument on an invalid config.
std::string dump_json(const pe::RopeConfig& config, long long length, long long rows = 0);

// Where a configuration came from when it was not a preset or a config.json path: added
// to the document as "origin" {kind, path, architecture, diagnostics}, and for GGUF a
// top-level "rope_mode" beside "convention".
struct DumpSource {
  std::string kind;          // "model" (Hugging Face cache) or "gguf"; "" adds nothing
  std::string path;          // the file read: the cached config.json or the .gguf
  std::string architecture;  // GGUF general.architecture
  std::string rope_mode;     // GGUF: llama.cpp's rope mode ("norm", "neox", "mrope", ...)
  std::vector<pe::Diagnostic> diagnostics;
};
// Multimodal additions (issue 12). A config with a multi-axis rotary always gets an "mrope"
// object (scheme, sections, axis_of_pair, inv_freq_of_pair, ...); with `prompt`, a
// "position_ids" object (t, h, w arrays) built by get_rope_index's rule.
struct MultimodalDumpOptions {
  std::optional<std::vector<pe::PromptItem>> prompt;
  double sample_fps = 2.0;  // the Qwen2.5-VL processor's default
  pe::RopeIndexVersion version = pe::RopeIndexVersion::Transformers4;
};
std::string dump_json(const pe::RopeConfig& config, long long length, long long rows, const DumpSource& source,
                      const MultimodalDumpOptions& multimodal = {});

// The document for a model that does not rotate (issue 33): position_encoding_json's family
// and parameters (no inv_freq) with "name", "title", "source" and, for a cache model, "origin".
std::string family_dump_json(const pe::LoadedConfig& loaded, const DumpSource& source = {});

// `--list-presets` output: [{"key", "title", "source", "position_encoding"}, ...], every preset
// (rotary or not).
std::string presets_json();

}  // namespace app
