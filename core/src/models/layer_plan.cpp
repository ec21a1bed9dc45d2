// Per-layer plan: which layers rotate, with which base, scaling, window and dims. The rules
// are each model class's (see config.cpp's schedule and pe/models/model_defaults.hpp); here the
// schedule becomes rows and groups.
#include "pe/models/layer_plan.hpp"

#include <algorithm>
#include <map>

namespace pe {
namespace {

bool same_behaviour(const LayerRow& a, const LayerRow& b) {
  if (a.attention != b.attention || a.rotary != b.rotary || a.window != b.window || a.qk_dims != b.qk_dims) return false;
  if (!a.rotary) return true;
  return a.config_index == b.config_index && a.theta == b.theta && a.scaling == b.scaling &&
         a.rotary_dims == b.rotary_dims;
}

LayerRow row_for(long long index, const std::string& attention, bool rotary, long long window, const RopeConfig& rope,
                 std::size_t config_index, long long qk_nope) {
  LayerRow r;
  r.index = index;
  r.attention = attention;
  r.rotary = rotary;
  r.window = window;
  r.config_index = config_index;
  r.qk_dims = rope.head_dim + qk_nope;
  if (rotary) {
    r.theta = rope.theta;
    r.scaling = rope.scaling.type;
    r.rotary_dims = 2 * rope.rotating_pairs();  // proportional: only the pairs that turn
  }
  return r;
}

}  // namespace

LayerPlan layer_plan(const RopeConfig& main, const LayerSchedule& s) {
  LayerPlan plan;
  plan.notes = s.notes;
  const long long n = s.num_layers > 0 ? std::min(s.num_layers, kMaxLayers) : 1;
  if (s.num_layers <= 0)
    plan.notes.push_back({Severity::Info, "num_hidden_layers", "not given: one row stands for every layer"});
  plan.rows.reserve(static_cast<std::size_t>(n));
  // One stored config per layer type (LongRoPE's lists are not copied per layer).
  plan.configs.push_back(main);
  std::map<std::string, std::size_t> index_of;
  for (const auto& [type, rope] : s.per_type) {
    index_of[type] = plan.configs.size();
    plan.configs.push_back(rope);
  }
  for (long long i = 0; i < n; ++i) {
    const std::string type =
        i < static_cast<long long>(s.layer_types.size()) ? s.layer_types[static_cast<std::size_t>(i)] : "full_attention";
    const bool rotary = i < static_cast<long long>(s.rotary.size()) ? s.rotary[static_cast<std::size_t>(i)] : true;
    long long window = 0;
    if (type == "sliding_attention") window = s.sliding_window;
    else if (type == "chunked_attention") window = s.attention_chunk_size;
    const auto own = index_of.find(type);
    const std::size_t k = own != index_of.end() ? own->second : 0;
    plan.rows.push_back(row_for(i, type, rotary, window, plan.configs[k], k, s.qk_nope_head_dim));
  }
  return plan;
}

LayerPlan layer_plan(const LoadedConfig& loaded) {
  LayerSchedule s;
  return layer_plan(loaded.config, s);
}

std::vector<LayerGroup> LayerPlan::groups() const {
  std::vector<LayerGroup> out;
  for (const auto& r : rows) {
    auto it = std::find_if(out.begin(), out.end(), [&](const LayerGroup& g) { return same_behaviour(g.row, r); });
    if (it == out.end()) out.push_back({{r.index}, r});
    else it->layers.push_back(r.index);
  }
  return out;
}

std::string format_layer_ranges(const std::vector<long long>& layers) {
  std::string out;
  std::size_t i = 0;
  while (i < layers.size()) {
    std::size_t j = i;
    while (j + 1 < layers.size() && layers[j + 1] == layers[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += std::to_string(layers[i]);
    if (j > i) out += (j == i + 1 ? ", " : "-") + std::to_string(layers[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace pe
