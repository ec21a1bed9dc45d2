// Multimodal keys of Hugging Face / diffusers config files (see multimodal_config_reader.hpp).
// Key names and defaults follow:
//  - transformers qwen2_vl/configuration_qwen2_vl.py (Qwen2VLConfig: text_config wins when
//    present; Qwen2VLTextConfig rewrites rope_type "mrope" to "default" and keeps
//    mrope_section; Qwen2VLVisionConfig: embed_dim, num_heads, spatial_merge_size = 2,
//    temporal_patch_size = 2), qwen2_5_vl (Qwen2_5_VLVisionConfig: hidden_size, num_heads,
//    tokens_per_second = 4), qwen3_vl (Qwen3VLTextRotaryEmbedding: mrope_section default
//    [24, 20, 20]; mrope_interleaved), pixtral (PixtralVisionConfig: head_dim, rope_theta,
//    image_size, patch_size), llama4 (Llama4VisionConfig: hidden_size / num_attention_heads);
//  - diffusers transformer_flux.py: FluxTransformer2DModel(attention_head_dim, axes_dims_rope)
//    with FluxPosEmbed(theta=10000, axes_dim=axes_dims_rope).
#include "multimodal_config_reader.hpp"

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "pe/models/config.hpp"
#include "pe/base/errors.hpp"
#include "pe/multimodal/multimodal.hpp"

namespace pe {
namespace {

using json = nlohmann::json;

std::string join(const std::string& prefix, const std::string& key) { return prefix.empty() ? key : prefix + "." + key; }

// A member that is present and not null (HF treats null as absent).
const json* member(const json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}

const json* object_member(const json& obj, const char* key, const std::string& full_key) {
  const json* j = member(obj, key);
  if (j && !j->is_object()) throw ConfigError(full_key, std::string("expected an object or null, got ") + j->type_name());
  return j;
}

std::optional<std::string> string_member(const json& obj, const char* key, const std::string& full_key) {
  const json* j = member(obj, key);
  if (!j) return std::nullopt;
  if (!j->is_string()) throw ConfigError(full_key, std::string("expected a string, got ") + j->type_name());
  return j->get<std::string>();
}

std::optional<bool> bool_member(const json& obj, const char* key, const std::string& full_key) {
  const json* j = member(obj, key);
  if (!j) return std::nullopt;
  if (!j->is_boolean()) throw ConfigError(full_key, std::string("expected true or false, got ") + j->type_name());
  return j->get<bool>();
}

// Whole numbers written as 4 or 4.0, within [minimum, maximum].
long long to_integer(const json& j, const std::string& full_key, long long minimum, long long maximum) {
  if (!j.is_number()) throw ConfigError(full_key, std::string("expected a whole number, got ") + j.type_name());
  const double d = j.get<double>();
  if (!std::isfinite(d) || d != std::floor(d))
    throw ConfigError(full_key, "expected a whole number, got " + format_double(d));
  if (d < static_cast<double>(minimum) || d > static_cast<double>(maximum))
    throw ConfigError(full_key, "out of range (got " + format_double(d) + ", allowed " + std::to_string(minimum) +
                                    " ... " + std::to_string(maximum) + ")");
  return static_cast<long long>(d);
}

std::optional<long long> int_member(const json& obj, const char* key, const std::string& full_key, long long minimum,
                                    long long maximum) {
  const json* j = member(obj, key);
  if (!j) return std::nullopt;
  return to_integer(*j, full_key, minimum, maximum);
}

std::optional<double> number_member(const json& obj, const char* key, const std::string& full_key) {
  const json* j = member(obj, key);
  if (!j) return std::nullopt;
  if (!j->is_number()) throw ConfigError(full_key, std::string("expected a number, got ") + j->type_name());
  const double d = j->get<double>();
  if (!std::isfinite(d)) throw ConfigError(full_key, "number out of range (" + format_double(d) + ")");
  return d;
}

std::optional<std::vector<long long>> int_list_member(const json& obj, const char* key, const std::string& full_key,
                                                      long long minimum, long long maximum) {
  const json* j = member(obj, key);
  if (!j) return std::nullopt;
  if (!j->is_array()) throw ConfigError(full_key, std::string("expected a list of whole numbers, got ") + j->type_name());
  if (j->size() > 16) throw ConfigError(full_key, "expected at most a few entries, got " + std::to_string(j->size()));
  std::vector<long long> out;
  for (std::size_t i = 0; i < j->size(); ++i)
    out.push_back(to_integer((*j)[i], full_key + "[" + std::to_string(i) + "]", minimum, maximum));
  return out;
}

std::string list_text(const std::vector<long long>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// The rope block parse_object reads: rope_parameters (its full_attention entry for
// per-layer-type blocks) else rope_scaling. Its key is returned in `key`.
const json* rope_block(const json& lm, const std::string& prefix, std::string& key) {
  const json* params = object_member(lm, "rope_parameters", join(prefix, "rope_parameters"));
  if (params) {
    key = join(prefix, "rope_parameters");
    if (!member(*params, "rope_type") && !member(*params, "type") && member(*params, "full_attention")) {
      key += ".full_attention";
      params = object_member(*params, "full_attention", key);
    }
    return params;
  }
  key = join(prefix, "rope_scaling");
  return object_member(lm, "rope_scaling", key);
}

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

void read_mrope(const json& root, const json& lm, const std::string& prefix, RopeConfig& c) {
  MultimodalRope& mm = c.multimodal;
  std::string block_key;
  const json* block = rope_block(lm, prefix, block_key);
  if (!block) return;
  std::optional<std::string> type = string_member(*block, "rope_type", block_key + ".rope_type");
  std::string type_key = block_key + ".rope_type";
  if (!type) {
    type = string_member(*block, "type", block_key + ".type");
    type_key = block_key + ".type";
  }
  const std::string section_key = block_key + ".mrope_section";
  auto sections = int_list_member(*block, "mrope_section", section_key, 0, kMaxDim);
  const auto interleaved = bool_member(*block, "mrope_interleaved", block_key + ".mrope_interleaved");
  const bool says_mrope = type && (*type == "mrope" || *type == "MRoPE" || *type == "m-rope");
  if (!sections && !says_mrope && !(interleaved && *interleaved)) return;

  if (!sections) {
    if (interleaved && *interleaved) {
      sections = std::vector<long long>{24, 20, 20};
      mm.notes.push_back(section_key + ": missing; Qwen3-VL's rotary embedding then uses [24, 20, 20] "
                                       "(Qwen3VLTextRotaryEmbedding)");
    } else {
      throw ConfigError(section_key, "missing (required for rope_type \"mrope\": the attention reads "
                                     "rope_scaling[\"mrope_section\"], e.g. [16, 24, 24] for head_dim 128)");
    }
  }
  if (sections->size() != 3)
    throw ConfigError(section_key, "expected three entries (t, h, w pairs), got " + list_text(*sections));
  const long long pairs = c.rotary_dim() / 2;
  long long sum = 0;
  for (long long s : *sections) sum += s;
  if (sum != pairs)
    throw ConfigError(section_key, list_text(*sections) + " sums to " + std::to_string(sum) +
                                       " pairs; the sections must cover the rotary pairs, rotary_dim / 2 = " +
                                       std::to_string(pairs) + " (head_dim " + std::to_string(c.head_dim) + ")");
  MultiAxisRope m;
  m.scheme = interleaved && *interleaved ? MultiAxisScheme::MRopeInterleaved : MultiAxisScheme::MRope;
  m.sections = *sections;
  const std::string model_type = string_member(root, "model_type", "model_type").value_or("");
  // Qwen3-VL and Qwen3.5 interleave whatever mrope_interleaved says (transformers never reads it).
  if ((starts_with(model_type, "qwen3_vl") || starts_with(model_type, "qwen3_5")) && m.scheme == MultiAxisScheme::MRope) {
    m.scheme = MultiAxisScheme::MRopeInterleaved;
    mm.notes.push_back(section_key + ": " + model_type + " interleaves the sections t, h, w, t, h, w, ... "
                       "(apply_interleaved_mrope; mrope_interleaved is not read)");
  }
  if (starts_with(model_type, "ernie4_5_vl")) {
    // ERNIE 4.5 VL writes mrope_section as (h, w, t): h and w alternate over the fast pairs.
    m.scheme = MultiAxisScheme::Ernie3D;
    m.sections = {(*sections)[2], (*sections)[0], (*sections)[1]};
    try {
      validate(m, pairs);
    } catch (const InvalidArgument& e) {
      throw ConfigError(section_key, list_text(*sections) + ": " + e.allowed());
    }
    mm.notes.push_back(section_key + ": " + list_text(*sections) + " = h, w, t pairs (ERNIE 4.5 VL's 3D RoPE: pair i < " +
                       std::to_string(m.sections[1] + m.sections[2]) + " follows h when even, w when odd; the slowest " +
                       std::to_string(m.sections[0]) + " follow t; modeling_ernie4_5_vl_moe.py recomposition_to_3d)");
  }
  mm.multi_axis = m;

  if (type && *type == "default")
    mm.notes.push_back(type_key + ": says \"default\" but " + section_key +
                       " is present, so the model rotates with M-RoPE: each rotary pair follows the t, h or w "
                       "position id its section assigns (Hugging Face rewrites \"mrope\" to \"default\" when it loads "
                       "a Qwen2-VL config and keeps mrope_section; code keyed on rope_type alone misses M-RoPE)");
  if (says_mrope)
    mm.notes.push_back(type_key + ": \"mrope\" is M-RoPE over the default frequencies theta^(-2i/d); the sections "
                                  "decide which position id (t, h, w) each pair follows");

  // Which get_rope_index builds the positions: the model type says it; else the keys do.
  if (starts_with(model_type, "qwen3_vl") || starts_with(model_type, "qwen3_5")) mm.rope_index = RopeIndexFamily::Qwen3VL;
  else if (starts_with(model_type, "qwen2_5_vl")) mm.rope_index = RopeIndexFamily::Qwen25VL;
  else if (starts_with(model_type, "qwen2_vl")) mm.rope_index = RopeIndexFamily::Qwen2VL;
  else if (m.scheme == MultiAxisScheme::MRopeInterleaved) mm.rope_index = RopeIndexFamily::Qwen3VL;
  else {
    const json* vision = member(root, "vision_config");
    mm.rope_index = vision && member(*vision, "tokens_per_second") ? RopeIndexFamily::Qwen25VL : RopeIndexFamily::Qwen2VL;
  }
}

void read_vision_config(const json& root, RopeConfig& c) {
  MultimodalRope& mm = c.multimodal;
  const json* v = object_member(root, "vision_config", "vision_config");
  if (!v) return;
  const std::string p = "vision_config";
  if (auto x = int_member(*v, "spatial_merge_size", p + ".spatial_merge_size", 1, 1024)) mm.spatial_merge_size = *x;
  if (auto x = int_member(*v, "temporal_patch_size", p + ".temporal_patch_size", 1, 1024)) mm.temporal_patch_size = *x;
  if (auto x = number_member(*v, "tokens_per_second", p + ".tokens_per_second")) {
    if (*x < 0.0 || *x > 1e6) throw ConfigError(p + ".tokens_per_second", "out of range (got " + format_double(*x) + ", allowed 0 ... 1e6)");
    mm.tokens_per_second = *x;
  } else if (mm.rope_index == RopeIndexFamily::Qwen25VL) {
    mm.tokens_per_second = 4.0;
    mm.notes.push_back(p + ".tokens_per_second: missing; Qwen2.5-VL's vision config class defaults to 4");
  }

  // The vision encoder's rotary: which model's 2D RoPE it is.
  const std::string vision_type = string_member(*v, "model_type", p + ".model_type").value_or("");
  const std::string model_type = string_member(root, "model_type", "model_type").value_or("");
  std::optional<Vision2DVariant> variant;
  if (vision_type == "pixtral") variant = Vision2DVariant::Pixtral;
  else if (starts_with(vision_type, "llama4") || starts_with(model_type, "llama4")) variant = Vision2DVariant::Llama4;
  else if (starts_with(vision_type, "qwen") || starts_with(model_type, "qwen2_vl") ||
           starts_with(model_type, "qwen2_5_vl") || starts_with(model_type, "qwen3_vl") || mm.multi_axis)
    variant = Vision2DVariant::Qwen2VL;
  if (!variant) {
    mm.notes.push_back(p + ".model_type: \"" + vision_type + "\" is not a vision encoder whose rotary pe-viz models "
                       "(Qwen2-VL family, Pixtral, Llama 4); the vision tower is not available");
    return;
  }

  VisionTowerRope t;
  t.variant = *variant;
  t.model_type = vision_type;
  if (auto hd = int_member(*v, "head_dim", p + ".head_dim", 4, kMaxDim)) {
    t.head_dim = *hd;
  } else {
    // Qwen2-VL's vision hidden_size is the merger's output (3584): its width is embed_dim.
    const char* width_key = member(*v, "embed_dim") ? "embed_dim" : "hidden_size";
    const char* heads_key = member(*v, "num_heads") ? "num_heads" : "num_attention_heads";
    const auto width = int_member(*v, width_key, p + "." + width_key, 1, std::numeric_limits<int>::max());
    const auto heads = int_member(*v, heads_key, p + "." + heads_key, 1, 65536);
    // The language model stays usable without them: the tower is left out, with a note.
    if (!width || !heads) {
      mm.notes.push_back(p + (width ? ".num_heads / num_attention_heads" : ".hidden_size / embed_dim") +
                         ": missing, so the vision encoder's head_dim is unknown; the vision tower is not available");
      return;
    }
    t.head_dim = *width / *heads;
    if (t.head_dim < 4 || t.head_dim > kMaxDim)
      throw ConfigError(p + "." + width_key, std::string(width_key) + " / " + heads_key + " = " +
                                                 std::to_string(t.head_dim) + " is not a usable head_dim (4 ... " +
                                                 std::to_string(kMaxDim) + ")");
  }
  if (t.head_dim % 4 != 0)
    throw ConfigError(p + ".head_dim", "vision head_dim = " + std::to_string(t.head_dim) +
                                           " is not divisible by 4 (2D RoPE gives half the pairs to rows, half to "
                                           "columns)");
  t.theta = 10000.0;  // Qwen: VisionRotaryEmbedding(dim, theta=10000.0), not configurable
  if (auto x = number_member(*v, "rope_theta", p + ".rope_theta")) t.theta = *x;
  if (const json* rp = object_member(*v, "rope_parameters", p + ".rope_parameters"))
    if (auto x = number_member(*rp, "rope_theta", p + ".rope_parameters.rope_theta")) t.theta = *x;
  if (!(t.theta > 1.0)) throw ConfigError(p + ".rope_theta", "got " + format_double(t.theta) + "; allowed: a finite number > 1");
  if (auto x = int_member(*v, "patch_size", p + ".patch_size", 1, 65536)) t.patch_size = *x;
  if (t.variant != Vision2DVariant::Qwen2VL)
    if (auto x = int_member(*v, "image_size", p + ".image_size", 1, 1 << 20)) t.max_patches_per_side = *x / t.patch_size;
  mm.vision_tower = t;
}

// diffusers FluxTransformer2DModel-style configs: no language-model keys at all.
bool is_diffusers_axial(const json& root) { return member(root, "axes_dims_rope") != nullptr; }

json diffusers_as_lm(const json& root, std::vector<std::string>& notes) {
  json lm = root;
  if (!member(lm, "head_dim")) {
    if (const json* a = member(root, "attention_head_dim")) lm["head_dim"] = *a;
    else throw ConfigError("attention_head_dim", "missing (diffusers transformer configs give the head size here)");
  }
  if (!member(lm, "rope_theta") && !member(lm, "theta")) lm["rope_theta"] = 10000.0;
  else if (!member(lm, "rope_theta")) lm["rope_theta"] = lm["theta"];
  // get_1d_rotary_pos_embed(repeat_interleave_real=True) + apply_rotary_emb(unbind -1):
  // pairs (2k, 2k+1).
  if (!member(lm, "pe_viz_convention")) lm["pe_viz_convention"] = "interleaved";
  if (!member(lm, "max_position_embeddings")) {
    // Axial models have no 1D context length; 4096 = the 64 × 64 latent patches of a
    // 1024 × 1024 FLUX image, a length for the 1D views only.
    lm["max_position_embeddings"] = 4096;
    notes.push_back("max_position_embeddings: absent in diffusers transformer configs; pe-viz uses 4096 (64 x 64 "
                    "latent patches at 1024 x 1024) for its 1D views");
  }
  return lm;
}

void read_axial(const json& root, RopeConfig& c) {
  const auto dims = int_list_member(root, "axes_dims_rope", "axes_dims_rope", 2, kMaxDim);
  if (!dims) return;
  if (dims->empty() || dims->size() > 3)
    throw ConfigError("axes_dims_rope", "expected one to three axes, got " + list_text(*dims));
  long long sum = 0;
  MultiAxisRope m;
  m.scheme = MultiAxisScheme::Axial;
  for (std::size_t a = 0; a < dims->size(); ++a) {
    if ((*dims)[a] % 2 != 0)
      throw ConfigError("axes_dims_rope[" + std::to_string(a) + "]",
                        "got " + std::to_string((*dims)[a]) + "; every axis needs an even number of dims");
    sum += (*dims)[a];
    m.sections.push_back((*dims)[a] / 2);
  }
  if (sum != c.rotary_dim())
    throw ConfigError("axes_dims_rope", list_text(*dims) + " sums to " + std::to_string(sum) +
                                            " dims; the rotary head has " + std::to_string(c.rotary_dim()) +
                                            " (attention_head_dim)");
  c.multimodal.multi_axis = m;
  c.multimodal.notes.push_back(
      "axes_dims_rope: axial RoPE (diffusers FluxPosEmbed, theta 10000): pairs " + std::to_string(m.sections[0]) +
      (dims->size() > 1 ? " | " + std::to_string(m.sections[1]) : std::string()) +
      (dims->size() > 2 ? " | " + std::to_string(m.sections[2]) : std::string()) +
      " follow position ids 0, 1, 2 (FLUX: text tokens (0, 0, 0), image latents (0, row, col)), each axis with its own "
      "ladder theta^(-2j/axis_dim)");
}

}  // namespace

detail::Resolution resolve_multimodal_config(const json& root, const std::string& name, ResolveObject resolve) {
  if (!root.is_object()) return resolve(root, name);  // it reports the top-level type

  std::vector<std::string> notes;
  const bool axial = is_diffusers_axial(root);
  detail::Resolution r;
  if (axial) {
    // A diffusers transformer config has no language-model keys: read a converted copy.
    const json lm = diffusers_as_lm(root, notes);
    try {
      r = resolve(lm, name);
    } catch (const ConfigError& e) {
      std::string key = e.key(), message = e.what();
      if (!key.empty() && message.rfind(key + ": ", 0) == 0) message = message.substr(key.size() + 2);
      throw ConfigError(key == "head_dim" ? "attention_head_dim" : key, message);
    }
  } else {
    r = resolve(root, name);  // unwraps text_config / llm_config / language_config itself
    // M-RoPE sections and rotary vision towers belong to rotary models; a model that does not
    // rotate (CLIP, SigLIP, a T5) has nothing of this to read.
    if (!r.loaded.encoding.rotates()) return r;
  }

  RopeConfig& c = r.loaded.config;
  if (axial) {
    read_axial(root, c);
  } else {
    const json* text_config = object_member(root, "text_config", "text_config");
    read_mrope(root, text_config ? *text_config : root, text_config ? "text_config" : "", c);
    read_vision_config(root, c);
  }
  notes.insert(notes.end(), c.multimodal.notes.begin(), c.multimodal.notes.end());
  c.multimodal.notes = notes;
  // The notes are "key: message"; the inspector lists them with the other diagnostics.
  for (const std::string& note : notes) {
    const std::size_t colon = note.find(": ");
    r.loaded.diagnostics.push_back({Severity::Info, colon == std::string::npos ? "" : note.substr(0, colon),
                                    colon == std::string::npos ? note : note.substr(colon + 2)});
  }

  const auto tower = string_member(root, "pe_viz_tower", "pe_viz_tower");
  if (tower && *tower != "language" && *tower != "vision")
    throw ConfigError("pe_viz_tower", "expected \"language\" or \"vision\", got \"" + *tower + "\"");
  if (tower && *tower == "vision") {
    if (!c.multimodal.vision_tower)
      throw ConfigError("pe_viz_tower", "\"vision\" needs a vision_config with a rotary embedding");
    RopeConfig v;
    try {
      v = vision_tower_config(c);
    } catch (const InvalidArgument& e) {
      throw ConfigError("vision_config", e.what());
    }
    v.name = c.name;  // the preset's key and title describe the tower itself
    v.title = c.title;
    v.source = c.source;
    v.multimodal.notes = c.multimodal.notes;
    c = std::move(v);
    r.loaded.diagnostics.push_back({Severity::Info, "pe_viz_tower",
                                    "\"vision\": this preset is the vision encoder's 2D RoPE, not the language model"});
  }
  return r;
}

}  // namespace pe
