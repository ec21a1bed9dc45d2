// The model description the q/k measure reads weights against: config.json (through the
// inspector, which resolves class defaults and the per-layer plan) or GGUF metadata (key
// names: llama.cpp src/llama-arch.cpp LLM_KV_NAMES; defaults: llama_model::load_hparams).
#include "pe/weights/weights_model.hpp"

#include <algorithm>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>

#include "pe/weights/weights_error.hpp"

namespace pe {

long long WeightsModel::heads_of(long long layer) const {
  if (layer >= 0 && layer < static_cast<long long>(heads_per_layer.size())) return heads_per_layer[static_cast<std::size_t>(layer)];
  return shape.num_attention_heads;
}

long long WeightsModel::kv_heads_of(long long layer) const {
  if (layer >= 0 && layer < static_cast<long long>(kv_heads_per_layer.size()))
    return kv_heads_per_layer[static_cast<std::size_t>(layer)];
  return shape.num_key_value_heads > 0 ? shape.num_key_value_heads : shape.num_attention_heads;
}

const LayerRow& WeightsModel::row_of(long long layer) const {
  static const LayerRow kNone{};
  if (plan.rows.empty()) return kNone;
  if (plan.rows.size() == 1) return plan.rows.front();
  const auto k = static_cast<std::size_t>(std::clamp<long long>(layer, 0, static_cast<long long>(plan.rows.size()) - 1));
  return plan.rows[k];
}

WeightsModel hf_weights_model(const InspectedConfig& config, const HfCheckpointLayout& layout) {
  if (!config.valid) {
    std::string why;
    for (const auto& d : config.loaded.diagnostics)
      if (d.severity == Severity::Error) why += (why.empty() ? "" : "; ") + (d.key.empty() ? d.message : d.key + ": " + d.message);
    throw WeightsError(config.source, "", "the configuration is not usable: " + (why.empty() ? std::string("invalid") : why));
  }
  if (!config.loaded.encoding.rotates())
    throw WeightsError(config.source, "",
                       "model_type " + config.model_type + " does not rotate: its positions are " +
                           describe_position_encoding(config.loaded.encoding) +
                           "; the frequency-usage reading measures RoPE pairs in W_q / W_k");
  WeightsModel m;
  m.source = config.source;
  m.shape = config.shape;
  m.rope = config.loaded.config;
  m.plan = config.plan;
  m.stored_order = layout.convention;
  m.stored_order_reason = layout.reason;
  return m;
}

WeightsModel hf_weights_model_file(const std::filesystem::path& config_json) {
  InspectedConfig c;
  HfCheckpointLayout layout;
  try {
    c = inspect_hf_config_file(config_json);
    layout = hf_checkpoint_layout_file(config_json);
  } catch (const WeightsError&) {
    throw;
  } catch (const ConfigError& e) {
    throw WeightsError(config_json.string(), "", e.what());
  }
  if (c.source.empty()) c.source = config_json.string();
  WeightsModel m = hf_weights_model(c, layout);
  std::ifstream in(config_json, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  m.fp8 = fp8_quantization_of(text.str(), config_json.string());
  return m;
}

namespace {

// {arch}.KEY as integers, one per layer: a number (the same for every layer) or an array of
// block_count numbers (llama.cpp get_key_or_arr). nullopt when absent.
std::optional<std::vector<long long>> per_layer(const GgufFile& f, const std::string& key, long long layers) {
  const GgufKeyValue* e = f.find_entry(key);
  if (!e) return std::nullopt;
  const GgufValue& v = e->value;
  std::vector<long long> out;
  const auto integer = [&](const GgufValue& x) {
    const auto n = x.type == GgufType::Bool ? std::nullopt : x.as_integer();
    if (!n || *n < 0 || *n > std::numeric_limits<int>::max())
      throw WeightsError(f.name, "", key, "expected a non-negative integer (or one per layer), got " + preview(v, 64));
    return *n;
  };
  if (v.is_array()) {
    if (v.truncated || static_cast<long long>(v.count) != layers || v.items.size() != v.count)
      throw WeightsError(f.name, "", key, "an array of " + std::to_string(v.count) + " values; block_count is " + std::to_string(layers));
    for (const auto& item : v.items) out.push_back(integer(item));
  } else {
    out.assign(static_cast<std::size_t>(layers), integer(v));
  }
  return out;
}

std::optional<long long> single(const GgufFile& f, const std::string& key) {
  const GgufKeyValue* e = f.find_entry(key);
  if (!e) return std::nullopt;
  const auto n = e->value.type == GgufType::Bool ? std::nullopt : e->value.as_integer();
  if (!n || *n < 0 || *n > std::numeric_limits<int>::max())
    throw WeightsError(f.name, "", key, "expected a non-negative integer, got " + preview(e->value, 64));
  return *n;
}

bool uniform(const std::vector<long long>& v) { return std::adjacent_find(v.begin(), v.end(), std::not_equal_to<>()) == v.end(); }

}  // namespace

WeightsModel gguf_weights_model(const GgufModelConfig& gguf) {
  const GgufFile& f = gguf.file;
  const std::string& arch = gguf.architecture;
  const auto key = [&](const char* suffix) { return arch + "." + suffix; };
  WeightsModel m;
  m.source = f.name;
  m.rope = gguf.loaded.config;
  ModelShape& s = m.shape;
  s.model_type = arch;
  const auto layers = single(f, key("block_count"));
  if (!layers || *layers < 1 || *layers > kMaxLayers)
    throw WeightsError(f.name, "", key("block_count"), layers ? "out of range (1 ... " + std::to_string(kMaxLayers) + ")" : "missing");
  s.num_hidden_layers = *layers;
  s.hidden_size = single(f, key("embedding_length")).value_or(0);
  const auto heads = per_layer(f, key("attention.head_count"), *layers);
  if (!heads) throw WeightsError(f.name, "", key("attention.head_count"), "missing");
  const auto kv = per_layer(f, key("attention.head_count_kv"), *layers).value_or(*heads);
  s.num_attention_heads = *std::max_element(heads->begin(), heads->end());
  s.num_key_value_heads = *std::max_element(kv.begin(), kv.end());
  if (!uniform(*heads)) m.heads_per_layer = *heads;
  if (!uniform(kv)) m.kv_heads_per_layer = kv;
  // MLA (deepseek2 and its kin): q heads are key_length_mla = qk_nope + qk_rope wide
  // (older files: key_length); the shared rotary key follows kv_lora_rank latent rows.
  const auto kv_lora = single(f, key("attention.kv_lora_rank"));
  const long long n_rot = m.rope.rotary_dim();
  if (kv_lora && *kv_lora > 0) {
    const auto mla_key = single(f, key("attention.key_length_mla"));
    s.head_dim = mla_key ? *mla_key : single(f, key("attention.key_length")).value_or(0);
    s.qk_rope_head_dim = n_rot;
    s.qk_nope_head_dim = s.head_dim - n_rot;
    s.kv_lora_rank = *kv_lora;
    s.q_lora_rank = single(f, key("attention.q_lora_rank")).value_or(0);
    if (s.qk_nope_head_dim < 0)
      throw WeightsError(f.name, "", mla_key ? key("attention.key_length_mla") : key("attention.key_length"),
                         std::to_string(s.head_dim) + " dims per q head, fewer than rope.dimension_count = " + std::to_string(n_rot));
    // The RopeConfig's head_dim is the absorbed cache row's (key_length = kv_lora_rank +
    // qk_rope): the plan's q/k width is the MLA head's.
  } else {
    s.head_dim = m.rope.head_dim;
  }
  const auto convention = pair_convention(gguf.rope_mode);
  if (!convention)
    throw WeightsError(f.name, "", "general.architecture",
                       "\"" + arch + "\": llama.cpp's rope mode for this architecture is not known to pe-viz, so the order of "
                       "its q/k rows is not either");
  m.stored_order = *convention;
  m.stored_order_reason = "llama.cpp rope mode " + std::string(to_string(gguf.rope_mode)) + " for \"" + arch + "\" (" +
                          (m.stored_order == PairConvention::Interleaved
                               ? "rows (2j, 2j+1) of each head form pair j; for Hugging Face checkpoints stored half-split "
                                 "the converter permuted them, LlamaModel.permute"
                               : "rows (j, j + n_rot/2) of each head form pair j, as Hugging Face stores them") +
                          ")";
  // Every layer rotates with the file's RoPE (GGUF keeps no per-layer schedule the reader knows).
  LayerSchedule schedule;
  schedule.num_layers = *layers;
  schedule.qk_nope_head_dim = s.qk_nope_head_dim;
  m.plan = layer_plan(m.rope, schedule);
  for (const auto& d : gguf.loaded.diagnostics)
    if (d.key.find("swa") != std::string::npos) m.notes.push_back(d);
  if (arch == "llama4")
    m.notes.push_back({Severity::Warning, "general.architecture",
                       "llama4 skips RoPE in every fourth layer (NoPE); this reader treats every layer as rotary"});
  return m;
}

}  // namespace pe
