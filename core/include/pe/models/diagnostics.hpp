#pragma once
// What a configuration source (config.json, the Hugging Face cache, a GGUF file) said
// beyond the numbers: keys taken from defaults, keys ignored, likely misspellings,
// contradictions. Readers append these; the inspector view and `pe-viz inspect` print them.
#include "pe/models/module_guard.hpp"
#include <string>
#include <vector>

#include "pe/models/position_encoding.hpp"
#include "pe/scaling/scaling.hpp"

namespace pe {

enum class Severity { Info, Warning, Error };

inline const char* to_string(Severity s) {
  switch (s) {
    case Severity::Info: return "info";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "info";
}

struct Diagnostic {
  Severity severity = Severity::Info;
  std::string key;      // e.g. "rope_scaling.attn_factor" or "llama.rope.freq_base"; "" for the whole source
  std::string message;  // what was found, how it was used, what was probably meant
};

// A configuration read from any source, with what the reader noticed on the way. `encoding`
// says which positional encoding the model has; `config` describes what rotates and is only
// the model's when encoding.rotates() (otherwise it keeps the name, title, source and sizes).
struct LoadedConfig {
  RopeConfig config;
  std::vector<Diagnostic> diagnostics;
  PositionEncodingInfo encoding;
};

}  // namespace pe
