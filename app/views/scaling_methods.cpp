#include "views/scaling_methods.hpp"

#include "state/derived.hpp"

namespace app {

double comparison_factor(const pe::RopeConfig& base) {
  return base.scaling.factor > 1.0 ? base.scaling.factor : 4.0;
}

const std::vector<MethodFrequencies>& all_method_frequencies(const pe::RopeConfig& base, long long length) {
  static std::vector<MethodFrequencies> cache;
  static std::string cache_key;
  const std::string key = rope_input_key(base, length);
  if (key == cache_key) return cache;
  cache_key = key;
  cache.clear();

  const double factor = comparison_factor(base);
  const long long original = base.original_max_position_embeddings();
  auto add = [&](const char* label, pe::RopeType type, long long at_length) {
    pe::RopeConfig c = base;
    c.scaling.type = type;
    c.scaling.factor = type == pe::RopeType::Default ? 1.0 : factor;
    c.scaling.original_max_position_embeddings = original;
    // A model's own method keeps its parameters; others get Hugging Face's defaults.
    if (type != base.scaling.type) {
      pe::RopeScaling defaults;
      c.scaling.beta_fast = defaults.beta_fast;
      c.scaling.beta_slow = defaults.beta_slow;
      c.scaling.mscale = defaults.mscale;
      c.scaling.mscale_all_dim = defaults.mscale_all_dim;
      c.scaling.attention_factor = defaults.attention_factor;
      c.scaling.low_freq_factor = defaults.low_freq_factor;
      c.scaling.high_freq_factor = defaults.high_freq_factor;
    }
    if (type == pe::RopeType::LongRope && c.max_position_embeddings <= original)
      c.max_position_embeddings = (long long)(double(original) * factor);
    MethodFrequencies m{label, type, {}, {}};
    try {
      m.freqs = pe::scaled_frequencies(c, at_length);
    } catch (const std::exception& e) {
      m.error = e.what();
    }
    cache.push_back(std::move(m));
  };
  add("none", pe::RopeType::Default, length);
  add("linear (PI)", pe::RopeType::Linear, length);
  add("ntk-aware", pe::RopeType::NtkAware, length);
  add("dynamic ntk", pe::RopeType::Dynamic, length);
  add("yarn", pe::RopeType::Yarn, length);
  add("llama3", pe::RopeType::Llama3, length);
  if (!base.scaling.short_factor.empty() && !base.scaling.long_factor.empty()) {
    add("longrope (short)", pe::RopeType::LongRope, std::min(length, original));
    add("longrope (long)", pe::RopeType::LongRope, std::max(length, original + 1));
  }
  return cache;
}

}  // namespace app
