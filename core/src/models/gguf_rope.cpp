// GGUF metadata → RopeConfig. Key names: llama.cpp src/llama-arch.cpp LLM_KV_NAMES
// ("%s.rope.freq_base", "%s.rope.scaling.type", ...); how llama.cpp reads them and their
// defaults: src/llama-model.cpp `llama_model::load_hparams` (freq_base 10000, scaling type
// "linear" with factor 0 = none, n_rot = head size, original context = context_length).
// What each number means on the Hugging Face side follows pe::RopeConfig (transformers'
// config names); where GGUF and HF differ, a Diagnostic says how it was mapped.
#include "pe/models/gguf_rope.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <numeric>
#include <utility>

#include "pe/base/errors.hpp"
#include "pe/multimodal/multimodal.hpp"
#include "pe/scaling/scaling.hpp"

namespace pe {

const char* to_string(GgufRopeMode mode) {
  switch (mode) {
    case GgufRopeMode::None: return "none";
    case GgufRopeMode::Norm: return "norm";
    case GgufRopeMode::Neox: return "neox";
    case GgufRopeMode::MRope: return "mrope";
    case GgufRopeMode::IMRope: return "imrope";
    case GgufRopeMode::Vision: return "vision";
    case GgufRopeMode::Unknown: return "unknown";
  }
  return "unknown";
}

std::optional<PairConvention> pair_convention(GgufRopeMode mode) {
  // ggml-cpu ops.cpp (rope, `switch (mode)`): NORMAL calls rotate_pairs(n_dims, 1) — dims
  // 2i and 2i+1; NEOX, MROPE and IMROPE call rotate_pairs(n_dims, n_dims/2) — dims i and
  // i + n_dims/2; VISION calls rotate_pairs(ne0, n_dims), the same split over the whole head.
  switch (mode) {
    case GgufRopeMode::Norm: return PairConvention::Interleaved;
    case GgufRopeMode::Neox:
    case GgufRopeMode::MRope:
    case GgufRopeMode::IMRope:
    case GgufRopeMode::Vision: return PairConvention::HalfSplit;
    case GgufRopeMode::None:
    case GgufRopeMode::Unknown: return std::nullopt;
  }
  return std::nullopt;
}

namespace {

// llama.cpp src/llama-model.cpp `llama_model_rope_type`, architectures by their
// general.architecture names (src/llama-arch.cpp LLM_ARCH_NAMES).
constexpr std::array kNoRope = {"clip",   "gpt2",         "gptj",       "mpt",         "refact",         "bloom",
                                "mamba",  "mamba2",       "jamba",      "jina-bert-v2", "t5",            "t5encoder",
                                "jais",   "rwkv6",        "rwkv6qwen2", "rwkv7",       "arwkv7",         "wavtokenizer-dec",
                                "nemotron_h", "nemotron_h_moe", "kimi-linear"};
constexpr std::array kNorm = {"llama",      "llada",         "llama4",      "deci",          "baichuan",   "starcoder",
                              "internlm2",  "minicpm",       "xverse",      "command-r",     "cohere2",    "cohere2moe",
                              "olmo",       "arctic",        "deepseek",    "deepseek2",     "deepseek2-ocr", "deepseek32",
                              "deepseek4",  "plm",           "chatglm",     "granite",       "granitemoe", "granitehybrid",
                              "chameleon",  "bailingmoe",    "neo-bert",    "smollm3",       "arcee",      "ernie4_5",
                              "ernie4_5-moe", "mistral3",    "eagle3",      "mistral4",      "llama-embed", "maincoder",
                              "glm-dsa"};
constexpr std::array kNeox = {"falcon",      "falcon-h1",     "grok",          "dbrx",         "bert",       "jina-bert-v3",
                              "modern-bert", "nomic-bert",    "nomic-bert-moe", "eurobert",    "stablelm",   "bitnet",
                              "qwen",        "qwen2",         "dream",         "qwen2moe",     "qwen3",      "qwen3moe",
                              "llada-moe",   "rnd1",          "olmo2",         "olmoe",        "phi2",       "phi3",
                              "phimoe",      "plamo",         "plamo2",        "plamo3",       "gemma",      "gemma2",
                              "gemma3",      "gemma3n",       "gemma4",        "gemma4-assistant", "gemma-embedding", "starcoder2",
                              "openelm",     "gptneox",       "codeshell",     "orion",        "nemotron",   "exaone",
                              "exaone4",     "exaone-moe",    "minicpm3",      "bailingmoe2",  "dots1",      "hunyuan-moe",
                              "jais2",       "gpt-oss",       "hunyuan-dense", "hy_v3",        "lfm2",       "lfm2moe",
                              "smallthinker", "seed_oss",     "grovemoe",      "apertus",      "minimax-m2", "cogvlm",
                              "pangu-embedded", "afmoe",      "laguna",        "qwen3next",    "mimo2",      "step35",
                              "talkie",      "mellum"};
constexpr std::array kMRope = {"qwen2vl", "paddleocr"};

// What positions the architectures llama.cpp runs without RoPE have instead (its graphs:
// llm_build_gpt2 / bloom / mpt / t5 / jina-bert-v2), for the refusal's message.
std::string non_rope_family_hint(const std::string& arch) {
  if (arch == "gpt2") return "; its positions are a learned table (position_embd): open its config.json for the family";
  if (arch == "bloom" || arch == "mpt" || arch == "jina-bert-v2")
    return "; its positions are ALiBi biases: open its config.json for the heads and slopes";
  if (arch == "t5" || arch == "t5encoder")
    return "; its positions are T5's bucketed relative bias: open its config.json for the buckets";
  return "";
}
constexpr std::array kIMRope = {"qwen3vl", "qwen3vlmoe", "qwen35", "qwen35moe"};

template <std::size_t N>
bool in(const std::array<const char*, N>& names, std::string_view arch) {
  return std::find(names.begin(), names.end(), arch) != names.end();
}

}  // namespace

GgufRopeMode gguf_rope_mode(std::string_view arch, bool has_rope_sections) {
  // Decided by hparams.use_mrope() in llama_model_rope_type.
  if (arch == "glm4") return has_rope_sections ? GgufRopeMode::MRope : GgufRopeMode::Norm;
  if (arch == "glm4moe" || arch == "hunyuan_vl") return has_rope_sections ? GgufRopeMode::MRope : GgufRopeMode::Neox;
  if (in(kNoRope, arch)) return GgufRopeMode::None;
  if (in(kNorm, arch)) return GgufRopeMode::Norm;
  if (in(kNeox, arch)) return GgufRopeMode::Neox;
  if (in(kMRope, arch)) return GgufRopeMode::MRope;
  if (in(kIMRope, arch)) return GgufRopeMode::IMRope;
  return GgufRopeMode::Unknown;
}

bool is_positional_key(std::string_view key, std::string_view arch) {
  if (key == "general.architecture") return true;
  if (arch.empty() || key.size() <= arch.size() + 1 || key.substr(0, arch.size()) != arch || key[arch.size()] != '.')
    return false;
  const std::string_view rest = key.substr(arch.size() + 1);
  if (rest.rfind("rope.", 0) == 0) return true;
  static constexpr std::array kKeys = {"context_length",          "embedding_length",          "attention.head_count",
                                       "attention.head_count_kv", "attention.key_length",      "attention.key_length_mla",
                                       "attention.key_length_swa", "attention.sliding_window", "attention.sliding_window_pattern"};
  return std::find(kKeys.begin(), kKeys.end(), rest) != kKeys.end();
}

std::vector<GgufMetadataEntry> gguf_metadata_entries(const GgufFile& file) {
  std::vector<GgufMetadataEntry> out;
  out.reserve(file.metadata.size());
  for (const auto& kv : file.metadata) out.push_back({kv.key, type_text(kv.value), preview(kv.value)});
  return out;
}

namespace {

using TensorReader = std::function<std::vector<float>(const GgufFile&, const GgufTensorInfo&, std::size_t max_elements)>;

// Whole numbers as integers ("500000", not "5e+05"); others as the shortest round trip.
std::string fmt(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::abs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  return format_double(v);
}

// Typed, key-naming access to the architecture's metadata.
class Keys {
 public:
  Keys(const GgufFile& f, std::string arch, std::vector<Diagnostic>& diags) : f_(f), arch_(std::move(arch)), diags_(diags) {}

  std::string key(const char* suffix) const { return arch_ + "." + suffix; }
  const GgufKeyValue* entry(const char* suffix) const { return f_.find_entry(key(suffix)); }
  std::uint64_t offset(const char* suffix) const {
    const GgufKeyValue* e = entry(suffix);
    return e ? e->offset : 0;
  }

  // An integer key; llama.cpp's loader also accepts a per-layer array (get_key_or_arr):
  // the first layer's value is used and a Diagnostic says so if layers differ.
  std::optional<long long> integer(const char* suffix, long long minimum, long long maximum) const {
    const GgufKeyValue* e = entry(suffix);
    if (!e) return std::nullopt;
    const std::string k = key(suffix);
    const GgufValue* v = &e->value;
    if (v->is_array()) {
      if (v->items.empty()) throw GgufError(k, e->offset, "an empty array; expected an integer (or one per layer)");
      for (const GgufValue& item : v->items)
        if (!item.as_integer() || item.type == GgufType::Bool)
          throw GgufError(k, e->offset, "expected integers, got " + type_text(*v));
      const long long first = *v->items.front().as_integer();
      const bool uniform = std::all_of(v->items.begin(), v->items.end(), [&](const GgufValue& x) { return *x.as_integer() == first; });
      if (!uniform)
        diags_.push_back({Severity::Info, k, "one value per layer, not all equal " + preview(*v, 64) + ": the first layer's " +
                                                 std::to_string(first) + " is used"});
      v = &v->items.front();
    }
    const auto n = v->type == GgufType::Bool ? std::nullopt : v->as_integer();
    if (!n) throw GgufError(k, e->offset, "expected an integer, got " + type_text(*v));
    if (*n < minimum || *n > maximum)
      throw GgufError(k, e->offset,
                      "out of range (got " + std::to_string(*n) + ", allowed " + std::to_string(minimum) + " ... " +
                          std::to_string(maximum) + ")");
    return *n;
  }

  std::optional<double> number(const char* suffix) const {
    const GgufKeyValue* e = entry(suffix);
    if (!e) return std::nullopt;
    const auto n = e->value.as_number();
    if (!n) throw GgufError(key(suffix), e->offset, "expected a number, got " + type_text(e->value));
    if (!std::isfinite(*n)) throw GgufError(key(suffix), e->offset, "not a finite number (" + fmt(*n) + ")");
    return *n;
  }

  std::optional<std::string> string(const char* suffix) const {
    const GgufKeyValue* e = entry(suffix);
    if (!e) return std::nullopt;
    if (!e->value.is_string()) throw GgufError(key(suffix), e->offset, "expected a string, got " + type_text(e->value));
    return e->value.s;
  }

  std::vector<long long> integer_list(const char* suffix) const {
    const GgufKeyValue* e = entry(suffix);
    if (!e) return {};
    const std::string k = key(suffix);
    if (!e->value.is_array()) throw GgufError(k, e->offset, "expected an array of integers, got " + type_text(e->value));
    std::vector<long long> out;
    for (const GgufValue& item : e->value.items) {
      const auto n = item.type == GgufType::Bool ? std::nullopt : item.as_integer();
      if (!n) throw GgufError(k, e->offset, "expected integers, got " + type_text(e->value));
      out.push_back(*n);
    }
    return out;
  }

 private:
  const GgufFile& f_;
  std::string arch_;
  std::vector<Diagnostic>& diags_;
};

// Llama 3's factors as convert_hf_to_gguf.py LlamaModel.generate_extra_tensors writes them
// (HF `_compute_llama3_parameters` as divisors): 1 for wavelengths below L/high, `factor`
// above L/low, 1 / ((1 − s)/factor + s) between, s = (L/λ − low)/(high − low).
double llama3_divisor(double inv_freq, double factor, double low, double high, double l_orig) {
  const double wavelen = 2.0 * std::numbers::pi / inv_freq;
  if (wavelen < l_orig / high) return 1.0;
  if (wavelen > l_orig / low) return factor;
  const double s = (l_orig / wavelen - low) / (high - low);
  return 1.0 / ((1.0 - s) / factor + s);
}

// Recovers Llama 3 parameters from a rope_freqs tensor when it is exactly Llama 3's shape
// with Meta's low/high = 1/4 (every Llama 3.1, 3.2, 3.3 config): factor = the largest
// divisor, L_orig solved from a value inside the smooth band (or 8192 when the band holds
// no pair), then every value checked to float precision.
std::optional<RopeScaling> fit_llama3(const std::vector<float>& r, double theta, long long rotary_dim) {
  if (r.empty()) return std::nullopt;
  const double factor = *std::max_element(r.begin(), r.end());
  if (!(factor > 1.0)) return std::nullopt;
  constexpr double low = 1.0, high = 4.0, tol = 1e-5;
  const auto inv_freq = [&](std::size_t i) {
    return std::pow(theta, -2.0 * static_cast<double>(i) / static_cast<double>(rotary_dim));
  };
  const auto near = [&](double a, double b) { return std::abs(a - b) <= tol * std::max(1.0, std::abs(b)); };
  double l_orig = 8192.0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    if (near(r[i], 1.0) || near(r[i], factor)) continue;
    const double s = (1.0 / r[i] - 1.0 / factor) / (1.0 - 1.0 / factor);
    const double wavelen = 2.0 * std::numbers::pi / inv_freq(i);
    l_orig = std::round(wavelen * (low + (high - low) * s));
    break;
  }
  if (!(l_orig >= 1.0 && l_orig <= static_cast<double>(kMaxLength))) return std::nullopt;
  for (std::size_t i = 0; i < r.size(); ++i)
    if (!near(r[i], llama3_divisor(inv_freq(i), factor, low, high, l_orig))) return std::nullopt;
  RopeScaling s;
  s.type = RopeType::Llama3;
  s.factor = factor;
  s.low_freq_factor = low;
  s.high_freq_factor = high;
  s.original_max_position_embeddings = static_cast<long long>(l_orig);
  return s;
}

std::string values_preview(const std::vector<float>& v) {
  GgufValue a;
  a.type = GgufType::Array;
  a.element_type = GgufType::Float32;
  a.count = v.size();
  for (std::size_t k = 0; k < std::min<std::size_t>(v.size(), 16); ++k) {
    GgufValue x;
    x.type = GgufType::Float32;
    x.f = v[k];
    a.items.push_back(x);
  }
  return preview(a, 96);
}

std::string tensor_type_text(const GgufTensorInfo& t) {
  const char* n = ggml_type_name(t.ggml_type);
  std::string shape;
  for (std::size_t k = 0; k < t.shape.size(); ++k) shape += (k ? " × " : "") + std::to_string(t.shape[k]);
  return std::string("tensor ") + (n ? n : "type " + std::to_string(t.ggml_type)) + " [" + shape + "]";
}

// The rope modes that rotate by several position ids get their pair → axis layout from
// rope.dimension_sections (llama.cpp stores four: t, h, w and an extra "e"; VISION two).
void attach_multi_axis(GgufModelConfig& out, const Keys& k, std::vector<Diagnostic>& diags) {
  MultiAxisScheme scheme{};
  switch (out.rope_mode) {
    case GgufRopeMode::MRope: scheme = MultiAxisScheme::MRope; break;
    case GgufRopeMode::IMRope: scheme = MultiAxisScheme::MRopeInterleaved; break;
    case GgufRopeMode::Vision: scheme = MultiAxisScheme::Vision2D; break;
    default: return;
  }
  const long long pairs = out.loaded.config.rotary_dim() / 2;
  try {
    out.loaded.config.multimodal.multi_axis = multi_axis_from_sections(scheme, out.rope_sections, pairs);
  } catch (const InvalidArgument& e) {
    diags.push_back({Severity::Warning, k.key("rope.dimension_sections"),
                     std::string("not a usable M-RoPE layout for ") + std::to_string(pairs) + " rotary pairs (" + e.allowed() +
                         "): the multi-axis views are not available for this file"});
    return;
  }
  if (scheme != MultiAxisScheme::MRopeInterleaved) return;
  // ggml's IMROPE (ggml-cpu ops.cpp, rope cache "qwen3vl apply interleaved mrope") gives a
  // pair that is neither h, w nor t by its section test the fourth position id "e";
  // transformers' apply_interleaved_mrope (modeling_qwen3_vl.py) keeps such pairs on t.
  // Text tokens carry four equal ids, so only image/video tokens (e = 0 in
  // mtmd-helper's set_position_mrope_2d) rotate those pairs differently.
  const auto& sec = out.rope_sections;
  const long long sum = std::accumulate(sec.begin(), sec.end(), 0LL);
  std::string differing;
  for (long long i = 0; i < pairs && sec.size() >= 3 && sum > 0; ++i) {
    const long long sector = i % sum;
    const bool h = sector % 3 == 1 && sector < 3 * sec[1], w = sector % 3 == 2 && sector < 3 * sec[2],
               t = sector % 3 == 0 && sector < 3 * sec[0];
    if (!h && !w && !t) differing += (differing.empty() ? "" : ", ") + std::to_string(i);
  }
  if (!differing.empty())
    diags.push_back({Severity::Info, k.key("rope.dimension_sections"),
                     "llama.cpp's IMROPE rotates pairs " + differing +
                         " of image and video tokens by its unused fourth position id (0); Hugging Face's "
                         "apply_interleaved_mrope rotates them by t. Text tokens agree"});
}


// One GGUF file's metadata being mapped onto a RopeConfig. map_config takes the steps below
// top to bottom: the architecture and its rope mode, the dimensions, θ, the scaling keys, the
// frequency-factor tensors, the positional key list, and what pe-viz can compute.
struct Mapping {
  Mapping(const GgufFile& f, const TensorReader& r, GgufModelConfig& o)
      : file(f), read_tensor(r), out(o), diags(o.loaded.diagnostics) {}
  const GgufFile& file;
  const TensorReader& read_tensor;
  GgufModelConfig& out;
  std::vector<Diagnostic>& diags;
  std::string arch;
  std::optional<Keys> keys;
  std::string head_dim_key;                         // the key head_dim came from
  const char* factor_suffix = "rope.scaling.factor";  // or the old rope.scale_linear
  std::string scaling_type;                         // rope.scaling.type as llama.cpp reads it
};

// general.architecture, the M-RoPE sections (GLM-4's rope mode depends on them), the rope
// mode and its pair convention.
void read_architecture(Mapping& m, const std::string& stem) {
  GgufModelConfig& out = m.out;
  const GgufFile& file = m.file;
  std::vector<Diagnostic>& diags = m.diags;
  const GgufKeyValue* arch_kv = file.find_entry("general.architecture");
  if (!arch_kv) throw GgufError("general.architecture", GgufError::kNoOffset, "missing (a GGUF model names its architecture: llama, qwen2, ...)");
  if (!arch_kv->value.is_string())
    throw GgufError("general.architecture", arch_kv->offset, "expected a string, got " + type_text(arch_kv->value));
  m.arch = arch_kv->value.s;
  const std::string& arch = m.arch;
  out.architecture = arch;
  if (arch.empty()) throw GgufError("general.architecture", arch_kv->offset, "empty");
  m.keys.emplace(file, arch, diags);
  const Keys& k = *m.keys;
  // M-RoPE sections first: GLM-4's rope mode depends on them.
  out.rope_sections = k.integer_list("rope.dimension_sections");
  const bool has_sections = std::any_of(out.rope_sections.begin(), out.rope_sections.end(), [](long long s) { return s != 0; });
  out.rope_mode = gguf_rope_mode(arch, has_sections);
  if (out.rope_mode == GgufRopeMode::None)
    throw GgufError("general.architecture", arch_kv->offset,
                    "\"" + arch + "\": llama.cpp runs this architecture without RoPE (llama_model_rope_type → LLAMA_ROPE_TYPE_NONE)" +
                        non_rope_family_hint(arch));
  // llama_model_rope_type lists bert with the NEOX models, but its graph (llm_build_bert) adds
  // the learned position_embd rows and ropes only nomic-bert / jina-bert-v3: BERT does not rotate.
  if (arch == "bert")
    throw GgufError("general.architecture", arch_kv->offset,
                    "\"bert\": llama.cpp's BERT graph adds learned position embeddings (position_embd), it does not "
                    "rotate; read its config.json for the learned table's size");
  RopeConfig& c = out.loaded.config;
  c.name = stem;
  if (const GgufValue* n = file.find("general.name"); n && n->is_string()) c.title = n->s;
  c.source = "GGUF " + file.name + " (general.architecture = " + arch + ", llama.cpp rope mode " + to_string(out.rope_mode) + ")";
  // DeepSeek's attention, as its transformers class runs it (llama.cpp's deepseek2 graph
  // scales kq by the same get_mscale(factor, mscale_all_dim)²).
  c.softmax_mscale = arch == "deepseek2" || arch == "deepseek2-ocr" || arch == "deepseek32" || arch == "minicpm3";
  if (const auto conv = pair_convention(out.rope_mode)) {
    c.convention = *conv;
    diags.push_back({Severity::Info, "general.architecture",
                     "llama.cpp rotates \"" + arch + "\" with rope mode " + to_string(out.rope_mode) + " (llama_model_rope_type): " +
                         (c.convention == PairConvention::Interleaved ? "interleaved pairs (2i, 2i+1)"
                                                                      : "half-split pairs (i, i + d/2)")});
  } else {
    c.convention = PairConvention::HalfSplit;
    diags.push_back({Severity::Warning, "general.architecture",
                     "\"" + arch + "\" is not in llama.cpp's llama_model_rope_type table known to pe-viz: pair convention unknown, "
                     "half-split assumed"});
  }
  if (has_sections) {
    std::string text;
    for (long long s : out.rope_sections) text += (text.empty() ? "" : ", ") + std::to_string(s);
    diags.push_back({Severity::Info, k.key("rope.dimension_sections"),
                     "M-RoPE sections [" + text + "] (pairs per position axis: time, height, width, extra); the frequencies "
                     "shown are those every axis shares"});
  }
}

// Lengths and dimensions (load_hparams: n_ctx_train required; n_embd_head_k =
// n_embd / n_head unless attention.key_length; n_rot = n_embd_head_k unless
// rope.dimension_count).
void read_dimensions(Mapping& m) {
  RopeConfig& c = m.out.loaded.config;
  const Keys& k = *m.keys;
  const auto ctx = k.integer("context_length", 1, kMaxLength);
  if (!ctx) throw GgufError(k.key("context_length"), GgufError::kNoOffset, "missing (llama.cpp requires it)");
  c.max_position_embeddings = *ctx;
  const auto embd = k.integer("embedding_length", 1, std::numeric_limits<long long>::max() / 2);
  const auto heads = k.integer("attention.head_count", 0, std::numeric_limits<long long>::max() / 2);
  const auto key_length = k.integer("attention.key_length", 1, kMaxDim);
  std::string& head_dim_key = m.head_dim_key;
  if (key_length) {
    c.head_dim = *key_length;
    head_dim_key = k.key("attention.key_length");
  } else if (embd && heads && *heads > 0) {
    const long long d = *embd / *heads;
    if (d < 1 || d > kMaxDim)
      throw GgufError(k.key("embedding_length"), k.offset("embedding_length"),
                      "embedding_length / attention.head_count = " + std::to_string(d) + " is not a usable head size (1 ... " +
                          std::to_string(kMaxDim) + ")");
    c.head_dim = d;
    head_dim_key = k.key("embedding_length");
  } else {
    throw GgufError(k.key("attention.key_length"), GgufError::kNoOffset,
                    "missing (give it, or " + k.key("embedding_length") + " and " + k.key("attention.head_count") + ")");
  }
  long long n_rot = c.head_dim;
  if (const auto r = k.integer("rope.dimension_count", 1, kMaxDim)) {
    if (*r > c.head_dim)
      throw GgufError(k.key("rope.dimension_count"), k.offset("rope.dimension_count"),
                      std::to_string(*r) + " rotating dims, more than the head's " + std::to_string(c.head_dim));
    n_rot = *r;
  }
  c.partial_rotary_factor = static_cast<double>(n_rot) / static_cast<double>(c.head_dim);
}

void read_theta(Mapping& m) {
  RopeConfig& c = m.out.loaded.config;
  const Keys& k = *m.keys;
  std::vector<Diagnostic>& diags = m.diags;
  c.theta = 10000.0;
  if (const auto base = k.number("rope.freq_base")) c.theta = *base;
  else diags.push_back({Severity::Info, k.key("rope.freq_base"), "absent: llama.cpp's default 10000 used"});
  for (const char* swa : {"rope.freq_base_swa", "rope.dimension_count_swa"})
    if (k.entry(swa))
      diags.push_back({Severity::Info, k.key(swa), "sliding-window layers rotate differently (" + preview(k.entry(swa)->value) +
                                                       "); the configuration shown is the full-attention layers'"});
}

// A small tensor of per-pair divisors, read and checked (expected values, each positive).
std::optional<std::vector<float>> tensor_values(Mapping& m, const char* name, std::size_t expected) {
  GgufModelConfig& out = m.out;
  const GgufFile& file = m.file;
  std::vector<Diagnostic>& diags = m.diags;
  const GgufTensorInfo* t = file.find_tensor(name);
  if (!t) return std::nullopt;
  std::vector<float> v;
  try {
    v = m.read_tensor(file, *t, static_cast<std::size_t>(kMaxDim));
  } catch (const GgufError& e) {
    diags.push_back({Severity::Warning, name, std::string("not read: ") + e.what()});
    return std::nullopt;
  }
  out.positional.push_back({name, tensor_type_text(*t), values_preview(v)});
  if (v.size() != expected) {
    diags.push_back({Severity::Warning, name,
                     std::to_string(v.size()) + " values, llama.cpp expects rope.dimension_count / 2 = " + std::to_string(expected) +
                         "; not used"});
    return std::nullopt;
  }
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i]) || v[i] <= 0.0f) {
      diags.push_back({Severity::Warning, name,
                       "value [" + std::to_string(i) + "] = " + fmt(v[i]) + " is not a positive divisor; not used"});
      return std::nullopt;
    }
  return v;
}

void map_yarn(Mapping& m, std::optional<double> factor, std::optional<long long> orig) {
  RopeConfig& c = m.out.loaded.config;
  RopeScaling& s = m.out.loaded.config.scaling;
  const Keys& k = *m.keys;
  std::vector<Diagnostic>& diags = m.diags;
  s.type = RopeType::Yarn;
  if (!factor) throw GgufError(k.key("rope.scaling.factor"), k.offset("rope.scaling.type"), "missing (needed by yarn)");
  s.factor = *factor;
  if (orig) {
    s.original_max_position_embeddings = *orig;
  } else {
    s.original_max_position_embeddings = c.max_position_embeddings;
    diags.push_back({Severity::Info, k.key("rope.scaling.original_context_length"),
                     "absent: llama.cpp uses context_length (" + std::to_string(c.max_position_embeddings) + ")"});
  }
  // llama.cpp's defaults for both (common/common.h yarn_beta_fast 32, yarn_beta_slow 1) are HF's.
  if (const auto v = k.number("rope.scaling.yarn_beta_fast")) s.beta_fast = *v;
  if (const auto v = k.number("rope.scaling.yarn_beta_slow")) s.beta_slow = *v;
  if (const auto v = k.number("rope.scaling.yarn_attn_factor")) s.attention_factor = *v;
  if (const auto v = k.number("rope.scaling.yarn_log_multiplier"); v && *v != 0.0) {
    // DeepSeek-V2/V3 conversions write 0.1·mscale_all_dim (convert_hf_to_gguf.py
    // DeepseekV2Model); their configs set mscale = mscale_all_dim, so HF's cos/sin
    // factor is 1 and the logits carry get_mscale(factor, mscale_all_dim)².
    s.mscale_all_dim = *v / 0.1;
    s.mscale = s.mscale_all_dim;
    diags.push_back({Severity::Info, k.key("rope.scaling.yarn_log_multiplier"),
                     "= " + fmt(*v) + ", read as DeepSeek's mscale_all_dim = mscale = " + fmt(*s.mscale_all_dim) +
                         " (the converter writes 0.1·mscale_all_dim)"});
  }
  if (const auto v = k.number("rope.scaling.yarn_ext_factor"))
    diags.push_back({Severity::Info, k.key("rope.scaling.yarn_ext_factor"),
                     "= " + fmt(*v) + ": llama.cpp's extrapolation mix has no Hugging Face counterpart; not modelled"});
}

void map_longrope(Mapping& m, std::optional<long long> orig, std::optional<double> attn_factor) {
  RopeConfig& c = m.out.loaded.config;
  RopeScaling& s = m.out.loaded.config.scaling;
  const Keys& k = *m.keys;
  std::vector<Diagnostic>& diags = m.diags;
  const std::size_t pairs = static_cast<std::size_t>(c.rotary_dim() / 2);
  const auto long_f = tensor_values(m, kRopeFactorsLongTensor, pairs);
  const auto short_f = tensor_values(m, kRopeFactorsShortTensor, pairs);
  if (long_f && short_f) {
    s.type = RopeType::LongRope;
    s.long_factor.assign(long_f->begin(), long_f->end());
    s.short_factor.assign(short_f->begin(), short_f->end());
    s.original_max_position_embeddings = orig.value_or(c.max_position_embeddings);
    if (!orig)
      diags.push_back({Severity::Info, k.key("rope.scaling.original_context_length"),
                       "absent: llama.cpp uses context_length, so it always picks the short factors"});
    if (attn_factor) s.attention_factor = *attn_factor;
    diags.push_back({Severity::Info, kRopeFactorsLongTensor,
                     "LongRoPE: rope_factors_long / rope_factors_short.weight divide each pair's frequency (long past " +
                         std::to_string(s.original_max_position_embeddings) + " tokens, as llama.cpp and HF choose)"});
  } else {
    diags.push_back({Severity::Warning, k.key("rope.scaling.type"),
                     "longrope without usable rope_factors_long.weight and rope_factors_short.weight: shown unscaled"});
  }
}

// Scaling. llama.cpp reads rope.scaling.type with default "linear" and factor 0 (= none),
// the old key rope.scale_linear as a fallback.
void read_scaling(Mapping& m) {
  RopeScaling& s = m.out.loaded.config.scaling;
  const Keys& k = *m.keys;
  std::vector<Diagnostic>& diags = m.diags;
  std::optional<double> factor = k.number("rope.scaling.factor");
  const char*& factor_suffix = m.factor_suffix;
  if (!factor && (factor = k.number("rope.scale_linear"))) factor_suffix = "rope.scale_linear";
  const auto orig = k.integer("rope.scaling.original_context_length", 1, kMaxLength);
  const auto attn_factor = k.number("rope.scaling.attn_factor");
  std::optional<std::string> type = k.string("rope.scaling.type");
  const bool factor_applies = factor && *factor != 0.0 && *factor != 1.0;
  if (!type) type = factor_applies ? "linear" : "none";
  m.scaling_type = *type;
  if (*type == "none") {
    s.type = RopeType::Default;
    if (factor_applies)
      diags.push_back({Severity::Warning, k.key(factor_suffix), "= " + fmt(*factor) + " ignored: rope.scaling.type is none"});
  } else if (*type == "linear") {
    if (factor_applies) {
      s.type = RopeType::Linear;
      s.factor = *factor;
      diags.push_back({Severity::Info, k.key(factor_suffix),
                       "linear scaling by " + fmt(*factor) + " (llama.cpp freq_scale = 1/" + fmt(*factor) + ")"});
    }
  } else if (*type == "yarn") {
    map_yarn(m, factor, orig);
  } else if (*type == "longrope") {
    map_longrope(m, orig, attn_factor);
  } else {
    const GgufKeyValue* e = k.entry("rope.scaling.type");
    throw GgufError(k.key("rope.scaling.type"), e ? e->offset : GgufError::kNoOffset,
                    "unknown scaling type \"" + *type + "\" (llama.cpp knows none, linear, yarn, longrope)");
  }
  if (attn_factor && s.type != RopeType::LongRope)
    diags.push_back({Severity::Info, k.key("rope.scaling.attn_factor"),
                     "= " + fmt(*attn_factor) + ": llama.cpp multiplies cos/sin by it; not part of the configuration shown"});
}

// Llama 3 (and Llama-3-style) frequency factors: llama.cpp passes rope_freqs to
// ggml_rope_ext as freq_factors, and the rope kernels divide each pair's angle by its
// factor (ggml-cpu ops.cpp rope_cache_init: rope_yarn(theta / ff, ...), ff = freq_factors[i0/2]).
void read_freq_factors(Mapping& m) {
  GgufModelConfig& out = m.out;
  const GgufFile& file = m.file;
  std::vector<Diagnostic>& diags = m.diags;
  RopeConfig& c = m.out.loaded.config;
  RopeScaling& s = m.out.loaded.config.scaling;
  const std::size_t pairs = static_cast<std::size_t>(c.rotary_dim() / 2);
  const std::string* type = &m.scaling_type;
  if (file.find_tensor(kRopeFreqsTensor)) {
    if (auto r = tensor_values(m, kRopeFreqsTensor, pairs)) {
      out.freq_factors = *r;
      if (s.type != RopeType::Default) {
        diags.push_back({Severity::Warning, kRopeFreqsTensor,
                         std::string("present together with rope.scaling.type = ") + *type +
                             ": llama.cpp applies both; shown: the metadata's scaling only"});
      } else if (auto fitted = fit_llama3(*r, c.theta, c.rotary_dim())) {
        s = *fitted;
        diags.push_back({Severity::Info, kRopeFreqsTensor,
                         std::to_string(r->size()) + " divisors of the pair frequencies (llama.cpp: θ_i / rope_freqs[i]); they "
                         "are exactly HF's llama3 scaling with factor " + fmt(s.factor) + ", low_freq_factor 1, high_freq_factor 4, "
                         "original_max_position_embeddings " + std::to_string(s.original_max_position_embeddings) +
                         " (recovered: GGUF stores only the divisors)"});
      } else {
        s.type = RopeType::LongRope;
        s.short_factor.assign(r->begin(), r->end());
        s.long_factor = s.short_factor;
        s.factor = 1.0;
        s.attention_factor = 1.0;
        diags.push_back({Severity::Info, kRopeFreqsTensor,
                         std::to_string(r->size()) + " divisors of the pair frequencies (llama.cpp: θ_i / rope_freqs[i]); not "
                         "Llama 3's shape with low/high 1/4, so shown as per-pair factors (longrope with short_factor = "
                         "long_factor = rope_freqs and no attention factor)"});
      }
    }
  }
}

// Every positional key, in file order, ahead of the tensors listed by the steps above.
void list_positional_keys(Mapping& m) {
  GgufModelConfig& out = m.out;
  const GgufFile& file = m.file;
  const std::string& arch = m.arch;
  std::vector<GgufMetadataEntry> keys;
  for (const auto& kv : file.metadata)
    if (is_positional_key(kv.key, arch)) keys.push_back({kv.key, type_text(kv.value), preview(kv.value)});
  out.positional.insert(out.positional.begin(), keys.begin(), keys.end());
}

// validate() names HF fields; report the GGUF key they came from.
void check_computable(Mapping& m) {
  const GgufFile& file = m.file;
  RopeConfig& c = m.out.loaded.config;
  RopeScaling& s = m.out.loaded.config.scaling;
  const Keys& k = *m.keys;
  const std::string& head_dim_key = m.head_dim_key;
  const char* factor_suffix = m.factor_suffix;
  try {
    validate(c);
  } catch (const InvalidArgument& e) {
    const std::string p = e.parameter();
    std::string key = p;
    if (p == "rope_theta") key = k.key("rope.freq_base");
    else if (p == "head_dim") key = head_dim_key;
    else if (p == "partial_rotary_factor") key = k.key("rope.dimension_count");
    else if (p == "max_position_embeddings") key = k.key("context_length");
    else if (p == "rope_scaling.factor") key = k.key(factor_suffix);
    else if (p == "rope_scaling.original_max_position_embeddings") key = k.key("rope.scaling.original_context_length");
    else if (p == "rope_scaling.beta_fast") key = k.key("rope.scaling.yarn_beta_fast");
    else if (p == "rope_scaling.beta_slow") key = k.key("rope.scaling.yarn_beta_slow");
    else if (p.rfind("rope_scaling.attention_factor", 0) == 0) key = k.key(s.type == RopeType::Yarn ? "rope.scaling.yarn_attn_factor" : "rope.scaling.attn_factor");
    else if (p.rfind("rope_scaling.mscale", 0) == 0) key = k.key("rope.scaling.yarn_log_multiplier");
    const GgufKeyValue* entry = file.find_entry(key);
    throw GgufError(key, entry ? entry->offset : GgufError::kNoOffset, "got " + e.value() + "; allowed: " + e.allowed());
  }
}

GgufModelConfig map_config(GgufFile file, const TensorReader& read_tensor, const std::string& stem) {
  GgufModelConfig out;
  out.loaded.diagnostics = file.diagnostics;
  Mapping m(file, read_tensor, out);
  read_architecture(m, stem);
  read_dimensions(m);
  read_theta(m);
  read_scaling(m);
  read_freq_factors(m);
  list_positional_keys(m);
  check_computable(m);
  attach_multi_axis(out, *m.keys, out.loaded.diagnostics);
  out.file = std::move(file);
  return out;
}

std::string stem_of(const std::string& name) {
  const auto dot = name.rfind('.');
  return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

}  // namespace

GgufModelConfig load_gguf_config(const std::filesystem::path& path) {
  GgufFile file = read_gguf(path);
  const std::string stem = stem_of(path.filename().string());
  return map_config(
      std::move(file), [&](const GgufFile& f, const GgufTensorInfo& t, std::size_t max) { return read_gguf_tensor(path, f, t, max); },
      stem);
}

GgufModelConfig parse_gguf_config(const GgufReadFunction& read, std::uint64_t size, const std::string& name) {
  GgufFile file = parse_gguf(read, size, name);
  return map_config(
      std::move(file),
      [&](const GgufFile& f, const GgufTensorInfo& t, std::size_t max) { return read_gguf_tensor(read, size, f, t, max); },
      stem_of(name));
}

GgufModelConfig parse_gguf_config(std::span<const std::uint8_t> bytes, const std::string& name) {
  GgufFile file = parse_gguf(bytes, name);
  return map_config(
      std::move(file), [&](const GgufFile& f, const GgufTensorInfo& t, std::size_t max) { return read_gguf_tensor(bytes, f, t, max); },
      stem_of(name));
}

}  // namespace pe
