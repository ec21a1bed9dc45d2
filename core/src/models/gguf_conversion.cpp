// Conventions across a Hugging Face → GGUF conversion; see gguf_conversion.hpp. The
// checkpoint side comes from transformers' modeling code (which rotate_half a model uses),
// the GGUF side from llama.cpp's rope mode (gguf_rope.cpp), the permutation from
// convert_hf_to_gguf.py LlamaModel.permute.
#include "pe/models/gguf_conversion.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "pe/models/config.hpp"
#include "pe/base/errors.hpp"

namespace pe {

namespace {

using json = nlohmann::json;

// Whole numbers as integers ("500000", not "5e+05"); others as the shortest round trip.
std::string fmt(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::abs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  return format_double(v);
}

const char* pairs_text(PairConvention c) {
  return c == PairConvention::Interleaved ? "interleaved pairs (2i, 2i+1)" : "half-split pairs (i, i + d/2)";
}

bool close(double a, double b, double rel) { return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b)); }

struct KnownLayout {
  std::array<const char*, 3> names;  // architectures / model_type values
  const char* reason;
};

// Checkpoints whose modeling code pairs adjacent dimensions (everything else in
// transformers uses modeling_llama.py's rotate_half on (i, i + d/2)).
const std::array<KnownLayout, 5> kInterleaved = {{
    {{"Llama4ForConditionalGeneration", "Llama4ForCausalLM", "llama4"},
     "transformers modeling_llama4.py apply_rotary_emb rotates adjacent pairs as complex numbers (torch.view_as_complex)"},
    {{"DeepseekV3ForCausalLM", "DeepseekV2ForCausalLM", "deepseek_v3"},
     "DeepSeek-V2/V3 store q/k rope dims interleaved (DeepseekV3Config rope_interleave defaults to true)"},
    {{"CohereForCausalLM", "Cohere2ForCausalLM", "cohere"},
     "transformers modeling_cohere.py rotate_half pairs x[..., ::2] with x[..., 1::2]"},
    {{"GlmForCausalLM", "Glm4ForCausalLM", "glm"},
     "transformers modular_glm.py rotate_half pairs x[..., 0::2] with x[..., 1::2]"},
    {{"ChatGLMModel", "ChatGLMForConditionalGeneration", "chatglm"},
     "ChatGLM's modeling code rotates adjacent pairs (as GLM)"},
}};

}  // namespace

HfCheckpointLayout hf_checkpoint_layout(const std::string& text) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::exception& e) {
    throw ConfigError("", std::string("config.json: ") + e.what());
  }
  if (!root.is_object()) throw ConfigError("", "config.json: expected a JSON object at the top level");
  HfCheckpointLayout out;
  if (auto it = root.find("architectures"); it != root.end() && it->is_array() && !it->empty() && it->front().is_string())
    out.architecture = it->front().get<std::string>();
  if (auto it = root.find("model_type"); it != root.end() && it->is_string()) out.model_type = it->get<std::string>();
  if (auto it = root.find("rope_interleave"); it != root.end() && it->is_boolean()) {
    out.convention = it->get<bool>() ? PairConvention::Interleaved : PairConvention::HalfSplit;
    out.reason = std::string("rope_interleave = ") + (it->get<bool>() ? "true" : "false");
    return out;
  }
  for (const KnownLayout& k : kInterleaved) {
    for (const char* n : k.names) {
      if (out.architecture == n || out.model_type == n) {
        out.convention = PairConvention::Interleaved;
        out.reason = k.reason;
        return out;
      }
    }
  }
  out.convention = PairConvention::HalfSplit;
  out.reason = "rotate_half on (i, i + d/2), transformers' default (modeling_llama.py rotate_half)";
  return out;
}

HfCheckpointLayout hf_checkpoint_layout_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError("", "cannot open " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return hf_checkpoint_layout(text.str());
}

std::vector<long long> llama_qk_permutation(long long head_dim) {
  if (head_dim < 2 || head_dim % 2 != 0 || head_dim > kMaxDim)
    throw InvalidArgument("head_dim", std::to_string(head_dim), "an even number 2 ... " + std::to_string(kMaxDim));
  // reshape(n_head, 2, head_dim/2) then swapaxes(1, 2): the new (j, t) entry, at row
  // 2j + t, is the old (t, j) entry, at row t·head_dim/2 + j.
  const long long half = head_dim / 2;
  std::vector<long long> rows(static_cast<std::size_t>(head_dim));
  for (long long j = 0; j < half; ++j)
    for (long long t = 0; t < 2; ++t) rows[static_cast<std::size_t>(2 * j + t)] = t * half + j;
  return rows;
}

ConversionConventions compare_conversion(const GgufModelConfig& gguf, const RopeConfig& hf, const HfCheckpointLayout& layout) {
  ConversionConventions out;
  auto& d = out.diagnostics;
  const RopeConfig& g = gguf.loaded.config;
  out.rope_mode = gguf.rope_mode;
  out.gguf = pair_convention(gguf.rope_mode);
  out.hf = layout.convention;
  const std::string hf_name = layout.architecture.empty() ? std::string("config.json") : layout.architecture;

  d.push_back({Severity::Info, "convention", hf_name + " rotates " + pairs_text(out.hf) + ": " + layout.reason});
  if (!out.gguf) {
    out.consistent = false;
    d.push_back({Severity::Warning, "convention",
                 "the GGUF's architecture \"" + gguf.architecture + "\" has no known llama.cpp rope mode: pairing not comparable"});
  } else {
    d.push_back({Severity::Info, "convention",
                 "llama.cpp rotates \"" + gguf.architecture + "\" with rope mode " + to_string(gguf.rope_mode) + ": " +
                     pairs_text(*out.gguf)});
    if (*out.gguf == out.hf) {
      d.push_back({Severity::Info, "convention",
                   "same pairing on both sides: the converter copies the q/k rows unchanged (no permutation)"});
    } else if (out.hf == PairConvention::HalfSplit) {
      out.qk_permuted = true;
      d.push_back({Severity::Info, "convention",
                   "q/k weights permuted by the converter: convert_hf_to_gguf.py LlamaModel.permute reorders each head's rows "
                   "(row 2j + t ← row t·d/2 + j), so llama.cpp's adjacent pairs hold the checkpoint's split pairs; the "
                   "scores are unchanged"});
      if (hf.partial_rotary_factor < 1.0)
        d.push_back({Severity::Warning, "partial_rotary_factor",
                     "LlamaModel.permute reorders the whole head, but only " + std::to_string(hf.rotary_dim()) + " of " +
                         std::to_string(hf.head_dim) + " dims rotate: the pairs would not line up"});
    } else {
      out.consistent = false;
      d.push_back({Severity::Warning, "convention",
                   "the checkpoint pairs adjacent dims but llama.cpp's " + std::string(to_string(gguf.rope_mode)) +
                       " mode pairs (i, i + d/2): the q/k rows would need the inverse of LlamaModel.permute, which "
                       "convert_hf_to_gguf.py does not apply — positions would be encoded on the wrong pairs"});
    }
  }

  // The numbers each side rotates with.
  const auto compare = [&](const char* key, double a, double b, double rel, const std::string& what) {
    if (close(a, b, rel)) {
      d.push_back({Severity::Info, key, what + ": " + fmt(a) + " on both sides"});
    } else {
      out.consistent = false;
      d.push_back({Severity::Warning, key, what + " differs: config.json " + fmt(a) + ", GGUF " + fmt(b)});
    }
  };
  // GGUF stores freq_base as float32: compare to float precision.
  compare("rope_theta", hf.theta, g.theta, 1e-6, "rope_theta / rope.freq_base");
  compare("rotary_dim", static_cast<double>(hf.rotary_dim()), static_cast<double>(g.rotary_dim()), 0.0,
          "rotating dims (rotary_dim / rope.dimension_count)");
  if (hf.head_dim != g.head_dim)
    d.push_back({Severity::Info, "head_dim",
                 "head_dim " + std::to_string(hf.head_dim) + " in config.json, " + std::to_string(g.head_dim) +
                     " in the GGUF (attention.key_length; MLA models store their compressed width there)"});
  compare("max_position_embeddings", static_cast<double>(hf.max_position_embeddings), static_cast<double>(g.max_position_embeddings),
          0.0, "max_position_embeddings / context_length");

  if (hf.scaling.type != g.scaling.type)
    d.push_back({Severity::Info, "rope_scaling",
                 std::string("scaling read as ") + to_string(hf.scaling.type) + " from config.json and as " +
                     to_string(g.scaling.type) + " from the GGUF; the frequencies decide"});
  try {
    const long long length = hf.max_position_embeddings;
    const ScaledFrequencies a = scaled_frequencies(hf, length), b = scaled_frequencies(g, length);
    if (a.inv_freq.size() == b.inv_freq.size()) {
      Eigen::Index worst = 0;
      double worst_rel = 0.0;
      for (Eigen::Index i = 0; i < a.inv_freq.size(); ++i) {
        const double rel = std::abs(a.inv_freq[i] - b.inv_freq[i]) / std::max(std::abs(a.inv_freq[i]), 1e-300);
        if (rel > worst_rel) {
          worst_rel = rel;
          worst = i;
        }
      }
      // float32 storage of freq_base and the factor tensors: agreement to ~1e-6 relative.
      if (worst_rel <= 1e-5) {
        d.push_back({Severity::Info, "inv_freq",
                     "the " + std::to_string(a.inv_freq.size()) + " scaled frequencies agree at length " + std::to_string(length) +
                         " (largest relative difference " + fmt(worst_rel) + ")"});
      } else {
        out.consistent = false;
        d.push_back({Severity::Warning, "inv_freq",
                     "scaled frequencies differ at length " + std::to_string(length) + ": pair " + std::to_string(worst) +
                         " has " + fmt(a.inv_freq[worst]) + " from config.json, " + fmt(b.inv_freq[worst]) + " from the GGUF"});
      }
      if (!close(a.attention_factor, b.attention_factor, 1e-6))
        d.push_back({Severity::Warning, "attention_factor",
                     "cos/sin factor " + fmt(a.attention_factor) + " from config.json, " + fmt(b.attention_factor) + " from the GGUF"});
    }
  } catch (const InvalidArgument& e) {
    d.push_back({Severity::Warning, "inv_freq", std::string("frequencies not compared: ") + e.what()});
  }
  return out;
}

}  // namespace pe
