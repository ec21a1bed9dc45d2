// The position tensors of a checkpoint (position_tensors.hpp): found by name, checked against
// the configuration before a byte of them is read, then read row by row through StoredMatrix
// (the same decoding as the q/k measure: any stored format, GGUF blocks dequantised).
#include "pe/weights/position_tensors.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>

#include <nlohmann/json.hpp>

#include "pe/base/errors.hpp"
#include "pe/models/gguf_rope.hpp"
#include "pe/weights/weights_error.hpp"

namespace pe {

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// `name` is `tail` or ends with "." + tail (any prefix: "bert.", "model.", ...).
bool named(const std::string& name, const std::string& tail) { return name == tail || ends_with(name, "." + tail); }

bool in_vision_tower(const std::string& name) {
  return name.find("vision_model.") != std::string::npos || name.find("vision_tower.") != std::string::npos ||
         name.rfind("vit.", 0) == 0 || name.rfind("deit.", 0) == 0;
}

// The role of a learned absolute table, or "" for any other tensor.
std::string learned_role(const std::string& n, bool gguf) {
  if (gguf) return n == "position_embd.weight" ? "position_embeddings" : "";
  if (named(n, "embeddings.position_embeddings")) return "vision_position_embeddings";  // ViT's Parameter [1, N, D]
  if (in_vision_tower(n) && (named(n, "embeddings.position_embedding.weight") || named(n, "embeddings.position_embeddings.weight")))
    return "vision_position_embeddings";
  if (named(n, "encoder.embed_positions.weight")) return "encoder_position_embeddings";
  if (named(n, "decoder.embed_positions.weight") || named(n, "wpe.weight") || named(n, "embeddings.position_embeddings.weight") ||
      named(n, "embeddings.position_embedding.weight") || named(n, "embed_positions.weight"))
    return "position_embeddings";
  return "";
}

struct BiasName {
  bool decoder = false;
  long long block = 0;
};

std::optional<BiasName> t5_bias_name(const std::string& n, bool gguf) {
  // Hugging Face: T5Attention of layer.0 (SelfAttention; LongT5's encoder Local… or
  // TransientGlobal…SelfAttention); GGUF: llama.cpp's attn_rel_b of enc / dec blocks.
  static const std::regex hf(R"((?:^|\.)(encoder|decoder)\.block\.(\d{1,6})\.layer\.0\.[A-Za-z]*SelfAttention\.relative_attention_bias\.weight$)");
  static const std::regex gg(R"(^(enc|dec)\.blk\.(\d{1,6})\.attn_rel_b\.weight$)");
  std::smatch m;
  if (!std::regex_search(n, m, gguf ? gg : hf)) return std::nullopt;
  return BiasName{m[1].str()[0] == 'd', std::stoll(m[2].str())};
}

std::string shape_text(const std::vector<std::uint64_t>& shape, bool gguf) {
  std::string s = gguf ? "ne [" : "[";
  for (std::size_t k = 0; k < shape.size(); ++k) s += (k ? ", " : "") + std::to_string(shape[k]);
  return s + "]";
}

// rows × cols as the file would state it.
std::string wanted_text(long long rows, long long cols, bool gguf) {
  return gguf ? "ne [" + std::to_string(cols) + ", " + std::to_string(rows) + "]" : "[" + std::to_string(rows) + ", " + std::to_string(cols) + "]";
}

std::string format_name(StoredFormat f) { return to_string(f); }

struct Planner {
  const TensorSource& source;
  const PositionTablesSpec& spec;
  PositionTensorPlan& plan;
  bool gguf = false;

  PositionTensorPlan::Table table(const std::string& role, const std::string& name, long long layer = 0) {
    PositionTensorPlan::Table t;
    t.role = role;
    t.layer = layer;
    t.shape = source.tensor_shape(name);
    t.matrix = source.table(name);
    return t;
  }

  [[noreturn]] void refuse(const PositionTensorPlan::Table& t, const std::string& why) const {
    throw WeightsError(t.matrix.file, t.matrix.tensor, "its shape is " + shape_text(t.shape, gguf) + ": " + why);
  }

  void learned(const std::string& role, const std::string& name) {
    PositionTensorPlan::Table t = table(role, name);
    const long long rows = t.matrix.rows, cols = t.matrix.cols;
    const bool encoder = role == "encoder_position_embeddings";
    const long long positions = encoder ? spec.encoder_positions : role == "position_embeddings" ? spec.positions : 0;
    const std::string& key = encoder ? spec.encoder_positions_key : spec.positions_key;
    const long long offset = role == "vision_position_embeddings" ? 0 : spec.position_offset;
    if (rows <= offset)
      refuse(t, std::to_string(rows) + " rows, no more than the " + std::to_string(offset) + " offset rows (" + spec.config_name + "'s " +
                    spec.position_offset_key + ") stored before position 0");
    if (positions > 0 && rows - offset < positions)
      refuse(t, std::to_string(rows) + " rows" + (offset ? " (" + std::to_string(rows - offset) + " positions after " + std::to_string(offset) + " offset rows)" : "") +
                    ", but " + spec.config_name + "'s " + key + " = " + std::to_string(positions) +
                    (offset ? " (+ " + std::to_string(offset) + " offset rows: " + spec.position_offset_key + ")" : "") + " needs " +
                    wanted_text(positions + offset, cols, gguf));
    if (spec.width > 0 && cols != spec.width)
      refuse(t, std::to_string(cols) + " values per position, but " + spec.config_name + "'s " + spec.width_key + " = " +
                    std::to_string(spec.width) + " needs " + wanted_text(rows, spec.width, gguf));
    plan.tables.push_back(std::move(t));
  }

  void t5_stack(bool decoder, const std::map<long long, std::string>& blocks, long long& buckets, long long& heads) {
    const std::string role = decoder ? "decoder_bias" : "encoder_bias";
    const long long layers = decoder ? spec.decoder_layers : spec.encoder_layers;
    // llama.cpp's T5 graph takes a layer's own attn_rel_b when the file has one (else block 0's),
    // so a GGUF file's blocks say it; a Hugging Face checkpoint's config does (UMT5).
    const bool per_layer = spec.bias_per_layer || ((spec.model_type.empty() || gguf) && blocks.size() > 1);
    if (!blocks.count(0))
      throw WeightsError(source.file_of(blocks.begin()->second), blocks.begin()->second,
                         std::string("the ") + (decoder ? "decoder" : "encoder") + "'s block 0 has no relative_attention_bias, but block " +
                             std::to_string(blocks.begin()->first) + " has: T5 keeps its stack's table in block 0");
    std::vector<long long> wanted;
    if (per_layer) {
      const long long n = layers > 0 ? layers : blocks.rbegin()->first + 1;
      for (long long l = 0; l < n; ++l) {
        if (!blocks.count(l)) {
          const std::string& some = blocks.begin()->second;
          throw WeightsError(source.file_of(some), "",
                             std::string("the ") + (decoder ? "decoder" : "encoder") + " has a relative_attention_bias per layer (" +
                                 (spec.model_type.empty() ? std::string("as its blocks show") : "model_type " + spec.model_type) + ", " +
                                 std::to_string(n) + " layers) but block " + std::to_string(l) + "'s is missing (there are " +
                                 std::to_string(blocks.size()) + ", e.g. " + some + ")");
        }
        wanted.push_back(l);
      }
    } else {
      wanted.push_back(0);
      if (blocks.size() > 1)
        plan.notes.push_back({Severity::Warning, blocks.rbegin()->second,
                              std::to_string(blocks.size()) + " blocks of the " + (decoder ? "decoder" : "encoder") +
                                  " have a relative_attention_bias, but model_type " + spec.model_type +
                                  " uses block 0's for every layer (only UMT5 has one per layer): the others are not read"});
    }
    for (long long l : wanted) {
      PositionTensorPlan::Table t = table(role, blocks.at(l), l);
      const long long rows = t.matrix.rows, cols = t.matrix.cols;
      if (spec.num_buckets > 0 && rows != spec.num_buckets)
        refuse(t, std::to_string(rows) + " buckets × " + std::to_string(cols) + " heads, but " + spec.config_name + "'s " +
                      spec.num_buckets_key + " = " + std::to_string(spec.num_buckets) + " needs " +
                      wanted_text(spec.num_buckets, spec.heads > 0 ? spec.heads : cols, gguf));
      if (spec.heads > 0 && cols != spec.heads)
        refuse(t, std::to_string(rows) + " buckets × " + std::to_string(cols) + " heads, but " + spec.config_name + "'s " + spec.heads_key +
                      " = " + std::to_string(spec.heads) + " needs " + wanted_text(rows, spec.heads, gguf));
      if (buckets > 0 && (rows != buckets || cols != heads))
        refuse(t, "not the " + std::to_string(buckets) + " buckets × " + std::to_string(heads) + " heads of the other bias tables");
      buckets = rows;
      heads = cols;
      plan.tables.push_back(std::move(t));
    }
  }

  void deberta(const std::string& name) {
    PositionTensorPlan::Table t = table("rel_embeddings", name);
    const long long rows = t.matrix.rows, cols = t.matrix.cols;
    const long long span = spec.position_buckets > 0 ? spec.position_buckets : spec.max_relative_positions;
    const std::string key = spec.position_buckets > 0 ? "position_buckets" : "max_relative_positions";
    if (span > 0 && rows != 2 * span)
      refuse(t, std::to_string(rows) + " rows, but " + spec.config_name + "'s " + key + " = " + std::to_string(span) +
                    " needs 2 · " + std::to_string(span) + ": " + wanted_text(2 * span, cols, gguf));
    if (rows % 2 != 0) refuse(t, std::to_string(rows) + " rows: DeBERTa's table has 2 · att_span rows, an even number");
    if (spec.width > 0 && cols != spec.width)
      refuse(t, std::to_string(cols) + " values per row, but " + spec.config_name + "'s " + spec.width_key + " = " +
                    std::to_string(spec.width) + " needs " + wanted_text(rows, spec.width, gguf));
    plan.tables.push_back(std::move(t));
    if (!spec.rel_layer_norm) return;
    // DebertaV2Encoder.LayerNorm, beside rel_embeddings in the same encoder.
    const std::string prefix = name.substr(0, name.size() - std::string("rel_embeddings.weight").size());
    for (const char* part : {"LayerNorm.weight", "LayerNorm.bias"}) {
      const std::string ln = prefix + part;
      if (!source.has_tensor(ln))
        throw WeightsError(source.file_of(name), ln,
                           "missing: " + spec.config_name + "'s norm_rel_ebd names layer_norm, which DebertaV2Encoder applies to " + name +
                               " before attention uses it");
      PositionTensorPlan::Table n = table("rel_layer_norm", ln);
      if (n.matrix.rows * n.matrix.cols != cols) refuse(n, "LayerNorm over " + std::to_string(cols) + " values needs " + std::to_string(cols) + " of them");
      plan.tables.push_back(std::move(n));
    }
  }
};

// The first (shortest, then alphabetical) of the names found for a role; the rest noted.
std::string pick(std::vector<std::string> names, const std::string& role, std::vector<Diagnostic>& notes) {
  std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) { return a.size() != b.size() ? a.size() < b.size() : a < b; });
  for (std::size_t k = 1; k < names.size(); ++k)
    notes.push_back({Severity::Warning, names[k], "also looks like the " + role + " table; " + names[0] + " is read"});
  return names[0];
}

TableF read_table(const StoredMatrix& m, long long first_row, std::uint64_t& bytes) {
  check_table_budget("position table (rows × dims)", m.rows - first_row, m.cols, sizeof(float));
  TableF out(m.rows - first_row, m.cols);
  for (long long r = first_row; r < m.rows; ++r) {
    const std::vector<float> row = read_row(m, r);
    for (long long c = 0; c < m.cols; ++c) out(r - first_row, c) = row[static_cast<std::size_t>(c)];
  }
  bytes += static_cast<std::uint64_t>(m.rows - first_row) * m.row_bytes;
  return out;
}

std::vector<float> read_vector(const StoredMatrix& m, std::uint64_t& bytes) {
  std::vector<float> out;
  for (long long r = 0; r < m.rows; ++r) {
    const std::vector<float> row = read_row(m, r);
    out.insert(out.end(), row.begin(), row.end());
  }
  bytes += m.bytes();
  return out;
}

// torch.nn.LayerNorm over each row: (x − mean) / sqrt(var + eps) · γ + β, var the biased
// (population) variance; in double.
void layer_norm_rows(TableF& t, const std::vector<float>& gamma, const std::vector<float>& beta, double eps) {
  for (Eigen::Index r = 0; r < t.rows(); ++r) {
    const Eigen::ArrayXd x = t.row(r).cast<double>().transpose();
    const double mean = x.mean();
    const double var = (x - mean).square().mean();
    const double scale = 1.0 / std::sqrt(var + eps);
    for (Eigen::Index c = 0; c < t.cols(); ++c)
      t(r, c) = static_cast<float>((x(c) - mean) * scale * double(gamma[static_cast<std::size_t>(c)]) + double(beta[static_cast<std::size_t>(c)]));
  }
}

}  // namespace

PositionTensorPlan plan_position_tensors(const TensorSource& source, const PositionTablesSpec& spec) {
  PositionTensorPlan plan;
  plan.source = source.description();
  plan.spec = spec;
  Planner planner{source, spec, plan, source.gguf_names()};
  std::map<std::string, std::vector<std::string>> learned;
  std::map<long long, std::string> encoder_blocks, decoder_blocks;
  std::vector<std::string> rel;
  for (const std::string& n : source.tensor_names()) {
    if (const std::string role = learned_role(n, planner.gguf); !role.empty()) learned[role].push_back(n);
    else if (const auto b = t5_bias_name(n, planner.gguf)) (b->decoder ? decoder_blocks : encoder_blocks)[b->block] = n;
    else if (!planner.gguf && named(n, "encoder.rel_embeddings.weight")) rel.push_back(n);
  }
  // A vision-only checkpoint (ViT, a CLIP vision tower) has its patch table as its only one.
  if (!learned.count("position_embeddings") && learned.count("vision_position_embeddings")) {
    learned["position_embeddings"] = std::move(learned["vision_position_embeddings"]);
    learned.erase("vision_position_embeddings");
  }
  if (spec.absolute_table_unused && learned.count("position_embeddings")) {
    plan.notes.push_back({Severity::Info, learned["position_embeddings"].front(), "not read: " + spec.absolute_table_unused_why});
    learned.erase("position_embeddings");
  }
  for (const char* role : {"position_embeddings", "encoder_position_embeddings", "vision_position_embeddings"})
    if (learned.count(role)) planner.learned(role, pick(learned[role], role, plan.notes));
  long long buckets = 0, heads = 0;
  if (!encoder_blocks.empty()) planner.t5_stack(false, encoder_blocks, buckets, heads);
  if (!decoder_blocks.empty()) planner.t5_stack(true, decoder_blocks, buckets, heads);
  if (!rel.empty()) planner.deberta(pick(rel, "rel_embeddings", plan.notes));
  return plan;
}

TrainedPositions read_position_tensors(const PositionTensorPlan& plan, const std::function<bool()>& keep_going) {
  TrainedPositions out;
  out.source = plan.source;
  out.notes = plan.notes;
  const PositionTablesSpec& spec = plan.spec;
  const auto check = [&] {
    if (keep_going && !keep_going()) throw WeightsCancelled();
  };
  std::vector<float> gamma, beta;
  std::string norm_tensors;
  for (const auto& t : plan.tables) {
    const StoredMatrix& m = t.matrix;
    if (t.role == "position_embeddings" || t.role == "encoder_position_embeddings" || t.role == "vision_position_embeddings") {
      LearnedPositionTable l;
      l.tensor = m.tensor;
      l.file = m.file;
      l.dtype = format_name(m.format);
      l.shape = t.shape;
      l.offset = t.role == "vision_position_embeddings" ? 0 : spec.position_offset;
      l.values = read_table(m, l.offset, out.bytes_read);
      if (l.offset > 0)
        out.notes.push_back({Severity::Info, m.tensor,
                             "the first " + std::to_string(l.offset) + " rows (" + spec.position_offset_key +
                                 ") come before position 0 and are dropped: row " + std::to_string(l.offset) + " is position 0"});
      if ((t.role == "position_embeddings" && spec.sinusoidal) || (t.role == "encoder_position_embeddings" && spec.encoder_sinusoidal))
        out.notes.push_back({Severity::Info, m.tensor,
                             "fixed sinusoids stored with the weights, not trained (model_type " + spec.model_type + ")"});
      (t.role == "position_embeddings" ? out.position_embeddings
       : t.role == "encoder_position_embeddings" ? out.encoder_position_embeddings
                                                 : out.vision_position_embeddings) = std::move(l);
    } else if (t.role == "encoder_bias" || t.role == "decoder_bias") {
      auto& stack = t.role == "decoder_bias" ? out.decoder_bias : out.encoder_bias;
      if (!stack) {
        stack.emplace();
        stack->params = {m.rows, spec.max_distance, t.role == "decoder_bias"};
        stack->bias.sharing = spec.bias_per_layer ? T5BiasSharing::PerLayer : T5BiasSharing::PerStack;
        stack->bias.layers = 0;
        stack->file = m.file;
        stack->dtype = format_name(m.format);
      }
      T5BiasTable table;
      table.bias = read_table(m, 0, out.bytes_read).cast<double>();
      stack->bias.tables.push_back(std::move(table));
      stack->tensors.push_back(m.tensor);
    } else if (t.role == "rel_embeddings") {
      DebertaRelativeTable d;
      d.tensor = m.tensor;
      d.file = m.file;
      d.dtype = format_name(m.format);
      d.att_span = m.rows / 2;
      d.values = read_table(m, 0, out.bytes_read);
      out.rel_embeddings = std::move(d);
    } else if (t.role == "rel_layer_norm") {
      (ends_with(m.tensor, "weight") ? gamma : beta) = read_vector(m, out.bytes_read);
      norm_tensors += (norm_tensors.empty() ? "" : ", ") + m.tensor;
    }
    check();
  }
  for (auto* stack : {&out.encoder_bias, &out.decoder_bias}) {
    if (!*stack) continue;
    T5StackBias& b = (*stack)->bias;
    const long long n = static_cast<long long>(b.tables.size());
    const long long configured = &*stack == &out.decoder_bias ? spec.decoder_layers : spec.encoder_layers;
    if (n > 1) b.sharing = T5BiasSharing::PerLayer;
    b.layers = b.sharing == T5BiasSharing::PerLayer ? n : std::max<long long>(configured, 1);
  }
  if (out.rel_embeddings && !gamma.empty() && !beta.empty()) {
    layer_norm_rows(out.rel_embeddings->values, gamma, beta, spec.layer_norm_eps);
    out.rel_embeddings->layer_norm = true;
    out.rel_embeddings->layer_norm_tensors = norm_tensors;
    out.notes.push_back({Severity::Info, out.rel_embeddings->tensor,
                         "normalised by the encoder's LayerNorm (norm_rel_ebd = layer_norm, eps " + std::to_string(spec.layer_norm_eps) +
                             ") as DebertaV2Encoder.get_rel_embedding does before attention uses it"});
  }
  return out;
}

TrainedPositions read_trained_positions(const TensorSource& source, const PositionTablesSpec& spec, const std::function<bool()>& keep_going) {
  return read_position_tensors(plan_position_tensors(source, spec), keep_going);
}

namespace {

// The config key a family parameter was read under ("max_position_embeddings" → "n_positions"),
// or the parameter's own name marked as the class default.
std::string config_key(const PositionEncodingInfo& info, const std::string& param) {
  for (const auto& [p, key] : info.keys)
    if (p == param) return key == "(class default)" ? param + " (class default)" : key;
  return param;
}

bool has_key(const PositionEncodingInfo& info, const std::string& param) {
  return std::any_of(info.keys.begin(), info.keys.end(), [&](const auto& k) { return k.first == param; });
}

// DebertaV2Encoder: norm_rel_ebd = [x.strip() for x in config.norm_rel_ebd.lower().split("|")];
// LayerNorm(hidden_size, layer_norm_eps).
void read_deberta_norm(PositionTablesSpec& s, const std::string& config_json) {
  if (config_json.empty()) return;
  const nlohmann::json root = nlohmann::json::parse(config_json, nullptr, false);
  if (!root.is_object()) return;
  if (const auto n = root.find("norm_rel_ebd"); n != root.end() && n->is_string()) {
    std::string v = n->get<std::string>();
    std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    std::size_t start = 0;
    while (start <= v.size()) {
      const std::size_t bar = std::min(v.find('|', start), v.size());
      std::string part = v.substr(start, bar - start);
      part.erase(0, part.find_first_not_of(" \t"));
      part.erase(part.find_last_not_of(" \t") + 1);
      if (part == "layer_norm") s.rel_layer_norm = true;
      start = bar + 1;
    }
  }
  if (const auto e = root.find("layer_norm_eps"); e != root.end() && e->is_number() && e->get<double>() > 0) s.layer_norm_eps = e->get<double>();
}

}  // namespace

PositionTablesSpec position_tables_spec(const PositionEncodingInfo& info, const std::string& config_json, const std::string& config_name) {
  using F = PositionEncodingFamily;
  PositionTablesSpec s;
  s.config_name = config_name;
  s.model_type = info.model_type;
  const auto is = [&](F f) { return info.family == f || info.encoder_family == f; };
  if (info.num_patches > 0) {
    s.positions = info.positions;
    s.positions_key = "(image_size / patch_size)²" + std::string(info.class_token ? " + 1 class token" : "");
  } else if (is(F::LearnedAbsolute) || is(F::Sinusoidal) || (is(F::DebertaRelative) && info.position_biased_input)) {
    s.positions = is(F::DebertaRelative) ? info.max_position_embeddings : info.positions;
    s.positions_key = config_key(info, "max_position_embeddings");
  }
  if (info.is_encoder_decoder() && info.encoder_positions > 0) {
    s.encoder_positions = info.encoder_positions;
    s.encoder_positions_key = has_key(info, "encoder_max_position_embeddings") ? config_key(info, "encoder_max_position_embeddings") : s.positions_key;
  }
  s.position_offset = info.position_offset;
  s.position_offset_key = has_key(info, "pad_token_id") ? config_key(info, "pad_token_id") + " + 1"
                                                         : info.model_type + "'s learned positional embedding offset";
  s.width = info.embedding_width > 0 ? info.embedding_width : info.hidden_size;
  s.width_key = config_key(info, has_key(info, "embedding_size") ? "embedding_size" : "hidden_size");
  s.sinusoidal = info.family == F::Sinusoidal;
  s.encoder_sinusoidal = info.encoder_family == F::Sinusoidal;
  if (info.family == F::RelativeKey || info.family == F::RelativeKeyQuery) {
    s.absolute_table_unused = true;
    s.absolute_table_unused_why = std::string("position_embedding_type is ") + (info.family == F::RelativeKey ? "relative_key" : "relative_key_query") +
                                  ": BertEmbeddings adds the absolute table only for \"absolute\"; each layer's "
                                  "distance_embedding holds the positions instead";
  }
  if (is(F::T5RelativeBias)) {
    s.num_buckets = info.relative_attention_num_buckets;
    s.num_buckets_key = config_key(info, "relative_attention_num_buckets");
    s.max_distance = info.relative_attention_max_distance > 0 ? info.relative_attention_max_distance : 128;
    s.heads = info.num_attention_heads;
    s.heads_key = config_key(info, "num_attention_heads");
    s.encoder_layers = info.num_hidden_layers;
    s.decoder_layers = info.num_decoder_layers > 0 ? info.num_decoder_layers : info.num_hidden_layers;
    s.bias_per_layer = info.bias_per_layer;
  }
  if (is(F::DebertaRelative)) {
    s.position_buckets = info.position_buckets;
    s.max_relative_positions = info.max_relative_positions;
    read_deberta_norm(s, config_json);
  }
  return s;
}

PositionEncodingInfo gguf_position_encoding(const GgufFile& file) {
  using F = PositionEncodingFamily;
  PositionEncodingInfo e;
  const GgufValue* arch = file.find("general.architecture");
  e.model_type = arch && arch->is_string() ? arch->s : "";
  e.decided_by = "general.architecture";
  const std::string& a = e.model_type;
  if (a == "gpt2" || a == "starcoder" || a == "bert") {
    e.family = F::LearnedAbsolute;
    e.modeling = "llama.cpp's " + a + " graph adds position_embd rows to the token embeddings";
  } else if (a == "t5" || a == "t5encoder") {
    e.family = F::T5RelativeBias;
    if (a == "t5") e.encoder_family = F::T5RelativeBias;
    e.modeling = "llama.cpp's T5 graph adds attn_rel_b through T5's relative position buckets";
  } else if (a == "bloom" || a == "mpt" || a == "jina-bert-v2" || a == "refact") {
    e.family = F::Alibi;
    e.modeling = "llama.cpp's " + a + " graph adds ALiBi to the logits";
  } else if (gguf_rope_mode(a) == GgufRopeMode::None) {
    e.family = F::None;
  }
  return e;
}

PositionTablesSpec gguf_position_tables_spec(const GgufFile& file) {
  PositionTablesSpec s;
  s.config_name = file.name;
  const GgufValue* arch = file.find("general.architecture");
  if (!arch || !arch->is_string()) return s;
  s.model_type = arch->s;
  const auto integer = [&](const std::string& suffix, std::string& key_out, long long& value) {
    const std::string key = s.model_type + "." + suffix;
    if (const GgufValue* v = file.find(key))
      if (const auto n = v->as_integer(); n && *n > 0) {
        value = *n;
        key_out = key;
      }
  };
  std::string unused;
  integer("context_length", s.positions_key, s.positions);
  integer("embedding_length", s.width_key, s.width);
  integer("attention.head_count", s.heads_key, s.heads);
  integer("attention.relative_buckets_count", s.num_buckets_key, s.num_buckets);
  integer("block_count", unused, s.encoder_layers);
  integer("decoder_block_count", unused, s.decoder_layers);
  // T5's context_length is no table size (it has none); its decoder defaults to the encoder's depth.
  if (s.model_type == "t5" || s.model_type == "t5encoder") {
    s.positions = 0;
    if (s.decoder_layers == 0) s.decoder_layers = s.encoder_layers;
  }
  s.position_offset_key = "offset rows (cut by llama.cpp's converter)";
  return s;
}

}  // namespace pe
