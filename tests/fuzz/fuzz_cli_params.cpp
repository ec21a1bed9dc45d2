// bytes → argv (split on newline or NUL) → CLI11 with app::add_state_options →
// app::apply_overrides on the default state. Refusal must be a CLI11 parse error,
// pe::InvalidArgument or std::runtime_error naming the option; an accepted command line
// must give a valid state whose derived values and core computations (RoPE, sinusoidal,
// ALiBi, relative score, attention, at capped sizes) work, and which saves and reloads.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "export/state_options.hpp"
#include "fuzz_common.hpp"
#include "pe/encodings/alibi.hpp"
#include "pe/base/errors.hpp"
#include "pe/encodings/sinusoidal.hpp"
#include "state/app_state.hpp"
#include "state/derived.hpp"
#include "state/relative_params.hpp"
#include "state/session_file.hpp"

namespace {

constexpr std::size_t kMaxArgs = 48;

std::vector<std::string> split_args(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args;
  std::string cur;
  for (std::size_t i = 0; i < size && args.size() < kMaxArgs; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\n' || c == '\0') {
      args.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty() && args.size() < kMaxArgs) args.push_back(std::move(cur));
  return args;
}

void exercise_state(const app::AppState& s) {
  app::Derived d;
  app::update_derived(s, d);
  PE_FUZZ_CHECK(d.error.empty(), d.error);  // a valid state draws: views have no fallback
  const pe::ScaledFrequencies f = pe_fuzz::exercise_rope(s.rope, s.length, s.seed);
  const long long pairs = f.inv_freq.size();

  // relative-score's averaged curve, few samples.
  const long long n = pe_fuzz::rows_for(pairs);
  const Eigen::ArrayXd deltas = Eigen::ArrayXd::LinSpaced(n, 0.0, static_cast<double>(s.length - 1));
  const Eigen::ArrayXd mean = pe::relative_score_curve(pe::VectorChoice::MeanOfRandomPairs, f.inv_freq, deltas, s.seed,
                                                       std::min<long long>(s.samples, 4));
  for (Eigen::Index i = 0; i < mean.size(); ++i) PE_FUZZ_CHECK(std::isfinite(mean[i]), "mean score");

  // sinusoidal heatmap rows.
  const long long dim = s.rope.head_dim;
  const long long rows = std::min(pe_fuzz::rows_for(dim), s.length);
  const pe::TableF sin_table = pe::sinusoidal_table(rows, dim, s.rope.theta, s.length - rows);
  PE_FUZZ_CHECK(sin_table.rows() == rows && sin_table.cols() == dim, "sinusoidal shape");

  // ALiBi: the selected head's bias over the first positions.
  const Eigen::ArrayXd slopes = pe::alibi_slopes(s.heads);
  PE_FUZZ_CHECK(slopes.size() == s.heads, "alibi_slopes size");
  (void)pe::alibi_bias(slopes[s.head - 1], std::min<long long>(s.length, pe_fuzz::kMaxPositions));

  // Attention patterns cost length·dim² (seeded projections): small heads, few positions.
  if (dim <= 16) {
    pe::AttentionParams params = app::attention_params(s, d);
    params.length = std::min<long long>(params.length, 8);
    for (const pe::AttentionMethod m : app::kAttentionMethods) {
      const pe::TableF p = pe::attention_pattern(m, params);
      PE_FUZZ_CHECK(p.rows() == params.length && p.cols() == params.length, "attention shape");
    }
  }

  // Theta lesson and walkthrough frequencies.
  (void)pe::inverse_frequencies(std::min<long long>(dim, 256), s.theta_low);
  (void)pe::inverse_frequencies(std::min<long long>(dim, 256), s.theta_high);
  (void)pe::inverse_frequencies(static_cast<long long>(s.walkthrough_q.size()), s.walkthrough_theta);
  PE_FUZZ_CHECK(static_cast<long long>(app::effective_vector(s).size()) == dim, "effective_vector size");

  // The relative views' core calls (issue 32) at capped sizes: an accepted state must draw them.
  const pe::T5BucketParams t5 = app::t5_params(s);
  const auto spans = pe::t5_bucket_spans(t5);
  PE_FUZZ_CHECK(static_cast<long long>(spans.size()) == s.num_buckets, "t5 spans");
  const long long reach = std::min<long long>(s.length, pe_fuzz::kMaxPositions);
  for (long long r = -(reach - 1); r < reach; ++r) {
    const long long b = pe::t5_relative_bucket(r, t5);
    PE_FUZZ_CHECK(b >= 0 && b < s.num_buckets, "t5 bucket " + std::to_string(b));
    (void)pe::deberta_log_bucket(r, app::deberta_params(s));
  }
  const pe::CopeCounts cope = pe::cope_count(s.cope_text, pe::cope_gate_pattern_from_string(s.cope_gates), s.cope_npos_max);
  PE_FUZZ_CHECK(!cope.tokens.empty(), "cope tokens");
  if (dim <= 256 && s.heads <= 64 && s.num_buckets <= 256) {
    const long long length = std::min<long long>(app::distance_axis_length(s), 100000);
    const pe::DistanceComparison c = pe::compare_distance_curves(app::distance_params(s, length, 16));
    for (const auto& curve : c.curves)
      for (Eigen::Index i = 0; i < curve.value.size(); ++i) PE_FUZZ_CHECK(std::isfinite(curve.value[i]), curve.key);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const app::AppState base = app::default_state();
  std::vector<std::string> args = split_args(data, size);
  std::vector<const char*> argv = {"pe-viz"};
  for (const auto& a : args) argv.push_back(a.c_str());

  // Built once (adding ~30 options costs more than a parse); CLI11 clears the previous
  // results when parse() runs again, and `o` is reset here.
  static app::StateOverrides o;
  static CLI::App& cli = [] () -> CLI::App& {
    static CLI::App c("pe-viz fuzz");
    app::add_state_options(c, o);
    return c;
  }();
  o = app::StateOverrides{};
  try {
    cli.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError&) {
    return 0;
  }
  // --config, --model and --gguf read files by name (a fuzzed path could be /dev/zero); the
  // loaders themselves are fuzz_hf_config's and fuzz_gguf's job.
  o.config.reset();
  o.model.reset();
  o.gguf.reset();

  app::AppState s = base;
  try {
    app::apply_overrides(s, o);
  } catch (const std::invalid_argument& e) {  // pe::InvalidArgument
    PE_FUZZ_CHECK(e.what()[0] != '\0', "empty message");
    return 0;
  } catch (const std::runtime_error& e) {
    PE_FUZZ_CHECK(e.what()[0] != '\0', "empty message");
    return 0;
  }
  const std::string error = app::validate_state(s);
  PE_FUZZ_CHECK(error.empty(), error);
  exercise_state(s);

  // What the GUI does on exit: autosave; the saved session must load again.
  std::string saved;
  try {
    saved = app::session_to_json(s);
  } catch (const std::exception& e) {
    pe_fuzz::fail("session_to_json of an accepted state", e.what());
  }
  std::vector<std::string> warnings;
  try {
    (void)app::session_from_json(saved, base, warnings);
  } catch (const app::SessionError& e) {
    pe_fuzz::fail("saved session reloads", e.what());
  }
  return 0;
}
