// `pe-viz weights` for a model that does not rotate: the trained position tensors it read
// (pe/weights/position_tensors.hpp) as text and as JSON, and what the analysis of a learned
// table found (pe/analysis/position_table_analysis.hpp).
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/weights_command.hpp"

namespace app {
namespace {

using json = nlohmann::json;

json rows_of(const pe::TableF& t) {
  json out = json::array();
  for (Eigen::Index r = 0; r < t.rows(); ++r) {
    json row = json::array();
    for (Eigen::Index c = 0; c < t.cols(); ++c) row.push_back(double(t(r, c)));
    out.push_back(std::move(row));
  }
  return out;
}

json rows_of(const pe::TableD& t) {
  json out = json::array();
  for (Eigen::Index r = 0; r < t.rows(); ++r) {
    json row = json::array();
    for (Eigen::Index c = 0; c < t.cols(); ++c) row.push_back(t(r, c));
    out.push_back(std::move(row));
  }
  return out;
}

json vector_of(const Eigen::VectorXd& v) {
  json out = json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) out.push_back(v(i));
  return out;
}

json tensor_entry(const std::string& key, const std::string& tensor, const std::string& file, const std::string& dtype,
                  const std::vector<std::uint64_t>& shape, long long offset) {
  return {{"key", key}, {"tensor", tensor}, {"file", file}, {"dtype", dtype}, {"shape", shape}, {"offset_rows", offset}};
}

std::string num(double v, const char* format = "%.3g") {
  char buf[48];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string shape_text(const std::vector<std::uint64_t>& shape) {
  std::string s = "[";
  for (std::size_t k = 0; k < shape.size(); ++k) s += (k ? ", " : "") + std::to_string(shape[k]);
  return s + "]";
}

// The distances 1, 2, 4, 8, ... up to the table's length, with the mean similarity there.
std::string band_text(const Eigen::VectorXd& by_distance, long long stride) {
  std::string s;
  for (long long d = 1; d < by_distance.size(); d *= 2)
    s += (s.empty() ? "" : ", ") + std::to_string(d * stride) + ": " + num(by_distance(d), "%.2f");
  return s;
}

void learned_text(std::ostringstream& out, const char* key, const pe::LearnedPositionTable& t) {
  out << "  " << key << "  " << t.tensor << " " << shape_text(t.shape) << " " << t.dtype << ": " << t.values.rows() << " positions × "
      << t.values.cols() << (t.offset ? " (the first " + std::to_string(t.offset) + " rows, before position 0, dropped)" : "") << "\n";
}

void bias_text(std::ostringstream& out, const char* stack, const pe::T5StackTables& s) {
  const pe::T5BiasTable& t = s.bias.tables.front();
  out << "  relative_attention_bias." << stack << "  " << s.tensors.front() << (s.tensors.size() > 1 ? " … (" + std::to_string(s.tensors.size()) + " tables)" : "")
      << " " << s.dtype << ": " << t.bias.rows() << " buckets × " << t.bias.cols() << " heads, "
      << (s.bias.sharing == pe::T5BiasSharing::PerLayer ? "one table per layer" : "one table for all " + std::to_string(s.bias.layers) + " layers")
      << "; " << (s.params.causal ? "causal" : "bidirectional") << " buckets, max_distance " << s.params.max_distance << "\n";
  // Per head: the bias at distance 0 (bucket 0) and in the last bucket, the farthest keys.
  const long long last = s.params.causal ? t.bias.rows() - 1 : t.bias.rows() / 2 - 1;
  out << "    bias per head at distance 0 → farthest keys before the query (bucket 0 → " << last << "):";
  for (Eigen::Index h = 0; h < t.bias.cols(); ++h) out << (h ? "," : "") << " " << num(t.bias(0, h)) << " → " << num(t.bias(last, h));
  out << "\n";
}

}  // namespace

std::string positions_text(const WeightsUsage& w) {
  const pe::TrainedPositions& p = w.positions;
  std::ostringstream out;
  out << "pe-viz weights: " << p.source << "\n";
  if (!w.config.empty()) out << "  config   " << w.config << "\n";
  out << "  family   " << describe_position_encoding(w.encoding) << " (model_type " << w.encoding.model_type << ")\n";
  out << "  q/k      not measured: " << w.encoding.model_type
      << " does not rotate q and k (the frequency usage measures RoPE pairs); its trained position tensors instead:\n";
  if (p.position_embeddings) learned_text(out, "position_embeddings", *p.position_embeddings);
  if (p.encoder_position_embeddings) learned_text(out, "encoder_position_embeddings", *p.encoder_position_embeddings);
  if (p.vision_position_embeddings) learned_text(out, "vision_position_embeddings", *p.vision_position_embeddings);
  if (w.analysis) {
    const TrainedTableAnalysis& a = *w.analysis;
    out << "    cosine similarity of positions d apart (mean over the table), d = " << band_text(a.similarity_by_distance, a.stride) << "\n";
    out << "    principal components (share of the variance):";
    for (Eigen::Index c = 0; c < a.components.variance_share.size(); ++c) out << " " << c + 1 << ": " << num(100.0 * a.components.variance_share(c), "%.1f%%");
    out << "\n";
    std::vector<double> f(a.spectra.dominant_frequency.data(), a.spectra.dominant_frequency.data() + a.spectra.dominant_frequency.size());
    std::sort(f.begin(), f.end());
    if (!f.empty())
      out << "    dominant frequency per dimension (cycles per position): median " << num(f[f.size() / 2]) << ", lowest " << num(f.front())
          << ", highest " << num(f.back()) << "\n";
  }
  if (p.encoder_bias) bias_text(out, "encoder", *p.encoder_bias);
  if (p.decoder_bias) bias_text(out, "decoder", *p.decoder_bias);
  if (p.rel_embeddings) {
    const pe::DebertaRelativeTable& d = *p.rel_embeddings;
    out << "  rel_embeddings  " << d.tensor << " " << d.dtype << ": " << d.values.rows() << " rows × " << d.values.cols()
        << " (row r is bucket r − " << d.att_span << ")" << (d.layer_norm ? ", after " + d.layer_norm_tensors : "") << "\n";
  }
  if (p.empty()) out << "  (no position tensors: " << w.encoding.model_type << "'s positions are not stored as weights)\n";
  out << "  read     " << p.bytes_read << " bytes of position tensors (" << byte_count(p.bytes_read) << ") in " << num(w.seconds, "%.3f") << " s\n";
  for (const auto& n : p.notes) out << "  note     " << (n.key.empty() ? "" : n.key + ": ") << n.message << "\n";
  return out.str();
}

std::string positions_json(const WeightsUsage& w) {
  const pe::TrainedPositions& p = w.positions;
  json j;
  j["source"] = p.source;
  j["config"] = w.config;
  j["model_type"] = w.encoding.model_type;
  j["position_encoding"] = pe::to_string(w.encoding.family);
  if (w.encoding.encoder_family) j["encoder_position_encoding"] = pe::to_string(*w.encoding.encoder_family);
  json tensors = json::array();
  const auto learned = [&](const char* key, const std::optional<pe::LearnedPositionTable>& t) {
    if (!t) return;
    j[key] = rows_of(t->values);
    tensors.push_back(tensor_entry(key, t->tensor, t->file, t->dtype, t->shape, t->offset));
  };
  learned("position_embeddings", p.position_embeddings);
  learned("encoder_position_embeddings", p.encoder_position_embeddings);
  learned("vision_position_embeddings", p.vision_position_embeddings);
  if (p.encoder_bias || p.decoder_bias) {
    // [bucket][head] per stack: the stack's table (UMT5: layer 0's, with every layer's below).
    json bias = json::object(), per_layer = json::object();
    for (const auto& [name, stack] : {std::pair{"encoder", &p.encoder_bias}, std::pair{"decoder", &p.decoder_bias}}) {
      if (!*stack) continue;
      const pe::T5StackTables& s = **stack;
      bias[name] = rows_of(s.bias.tables.front().bias);
      if (s.bias.sharing == pe::T5BiasSharing::PerLayer) {
        json layers = json::array();
        for (const auto& t : s.bias.tables) layers.push_back(rows_of(t.bias));
        per_layer[name] = std::move(layers);
      }
      for (std::size_t k = 0; k < s.tensors.size(); ++k)
        tensors.push_back(tensor_entry(std::string("relative_attention_bias.") + name, s.tensors[k], s.file, s.dtype,
                                       {std::uint64_t(s.bias.tables[k].bias.rows()), std::uint64_t(s.bias.tables[k].bias.cols())}, 0));
      j["relative_attention_num_buckets"] = s.params.num_buckets;
      j["relative_attention_max_distance"] = s.params.max_distance;
    }
    j["relative_attention_bias"] = std::move(bias);
    if (!per_layer.empty()) j["relative_attention_bias_per_layer"] = std::move(per_layer);
  }
  if (p.rel_embeddings) {
    const pe::DebertaRelativeTable& d = *p.rel_embeddings;
    j["rel_embeddings"] = rows_of(d.values);
    j["rel_embeddings_att_span"] = d.att_span;
    j["rel_embeddings_layer_norm"] = d.layer_norm;
    tensors.push_back(tensor_entry("rel_embeddings", d.tensor, d.file, d.dtype,
                                   {std::uint64_t(d.values.rows()), std::uint64_t(d.values.cols())}, 0));
  }
  j["tensors"] = std::move(tensors);
  if (w.analysis) {
    const TrainedTableAnalysis& a = *w.analysis;
    json scores = json::array();
    for (Eigen::Index r = 0; r < a.components.scores.rows(); ++r) scores.push_back(vector_of(a.components.scores.row(r).transpose()));
    j["analysis"] = {{"table", a.role},
                     {"similarity_stride", a.stride},
                     {"similarity_by_distance", vector_of(a.similarity_by_distance)},
                     {"principal_components",
                      {{"variance", vector_of(a.components.variance)},
                       {"variance_share", vector_of(a.components.variance_share)},
                       {"scores", std::move(scores)}}},
                     {"spectra", {{"frequency", vector_of(a.spectra.frequency)}, {"dominant_frequency", vector_of(a.spectra.dominant_frequency)}}}};
  }
  j["bytes_read"] = p.bytes_read;
  j["bytes_moved"] = w.bytes_moved;
  j["bytes_cached"] = w.bytes_from_cache;
  json notes = json::array();
  for (const auto& n : p.notes) notes.push_back({{"severity", pe::to_string(n.severity)}, {"key", n.key}, {"message", n.message}});
  j["notes"] = std::move(notes);
  return j.dump(2, ' ', false, json::error_handler_t::replace);
}

}  // namespace app
