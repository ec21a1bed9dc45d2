#pragma once
// A GGUF file's positional encoding as a RopeConfig: llama.cpp's metadata keys
// ({arch}.context_length, {arch}.rope.freq_base, {arch}.rope.scaling.* — src/llama-arch.cpp
// LLM_KV_NAMES), its frequency-factor tensors (rope_freqs.weight for Llama 3,
// rope_factors_long/short.weight for LongRoPE) and the rope mode llama.cpp picks for the
// architecture (src/llama-model.cpp `llama_model_rope_type`), which decides the pair
// convention.
#include "pe/models/module_guard.hpp"
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pe/models/diagnostics.hpp"
#include "pe/models/gguf.hpp"
#include "pe/encodings/rope.hpp"

namespace pe {

// llama.cpp's `enum llama_rope_type` (include/llama.h; ggml.h GGML_ROPE_TYPE_*), i.e. how
// ggml_rope pairs a head's dimensions (ggml-cpu ops.cpp `rotate_pairs`):
enum class GgufRopeMode {
  None,     // LLAMA_ROPE_TYPE_NONE: the architecture has no RoPE (GPT-2, BLOOM, Mamba, ...)
  Norm,     // NORM (0): "normal" RoPE on consecutive pairs (2i, 2i+1) — interleaved
  Neox,     // NEOX (2): pairs offset by n_rot/2, (i, i + n_rot/2) — half-split
  MRope,    // MROPE (8): NEOX pairing, frequencies split into sections per position axis (Qwen2-VL)
  IMRope,   // IMROPE (40): NEOX pairing, the axes' sections interleaved (Qwen3-VL)
  Vision,   // VISION (24): NEOX-style over the whole head, 2-D positions (vision encoders)
  Unknown,  // an architecture not in the table below
};
const char* to_string(GgufRopeMode mode);  // "none", "norm", "neox", "mrope", "imrope", "vision", "unknown"

// The rope mode llama.cpp uses for general.architecture. GLM-4 (and GLM-4 MoE, HunYuan-VL)
// switch to MROPE when the file carries rope sections (`hparams.use_mrope()`).
GgufRopeMode gguf_rope_mode(std::string_view architecture, bool has_rope_sections = false);

// The pair convention of a rope mode: Norm → interleaved; Neox, MRope, IMRope, Vision →
// half-split; nullopt for None and Unknown.
std::optional<PairConvention> pair_convention(GgufRopeMode mode);

// One metadata key or positional tensor as an inspector lists it.
struct GgufMetadataEntry {
  std::string key;      // "llama.rope.freq_base", "rope_freqs.weight"
  std::string type;     // "float32", "[uint32 × 4]", "tensor f32 [64]"
  std::string preview;  // "500000", "[16, 24, 24, 0]"
};

// Every metadata key in file order (the raw listing).
std::vector<GgufMetadataEntry> gguf_metadata_entries(const GgufFile& file);
// Whether a key describes positions: general.architecture, {arch}.context_length,
// .embedding_length, .attention.head_count / key_length, anything under {arch}.rope.
bool is_positional_key(std::string_view key, std::string_view architecture);
// Tensors llama.cpp reads as frequency factors (src/llama-arch.cpp LLM_TENSOR_NAMES:
// rope_freqs, rope_factors_long, rope_factors_short; ".weight" appended by the converter).
inline constexpr const char* kRopeFreqsTensor = "rope_freqs.weight";
inline constexpr const char* kRopeFactorsLongTensor = "rope_factors_long.weight";
inline constexpr const char* kRopeFactorsShortTensor = "rope_factors_short.weight";

struct GgufModelConfig {
  LoadedConfig loaded;  // the RopeConfig and what the reader noticed (Diagnostic::key = GGUF key)
  std::string architecture;                   // general.architecture
  GgufRopeMode rope_mode = GgufRopeMode::Unknown;
  std::vector<long long> rope_sections;       // {arch}.rope.dimension_sections (M-RoPE), empty if absent
  std::vector<float> freq_factors;            // rope_freqs.weight as stored (empty if absent)
  std::vector<GgufMetadataEntry> positional;  // every positional key and tensor found
  GgufFile file;                              // the whole header: all metadata, tensor infos
};

// Reads a GGUF file's header and positional tensors and maps them. Throws GgufError
// naming the key (e.g. "llama.context_length: missing") — also when the architecture has
// no RoPE or the numbers are invalid.
GgufModelConfig load_gguf_config(const std::filesystem::path& path);
// The same from bytes in memory (tests, fuzzing).
GgufModelConfig parse_gguf_config(std::span<const std::uint8_t> bytes, const std::string& name = "memory.gguf");
// The same for a file read through a function (pe::parse_gguf's GgufReadFunction).
GgufModelConfig parse_gguf_config(const GgufReadFunction& read, std::uint64_t size, const std::string& name);

}  // namespace pe
