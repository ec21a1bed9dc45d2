#include "cli/dump_command.hpp"

#include <CLI/CLI.hpp>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <numbers>
#include <optional>
#include <ostream>

#include "pe/config.hpp"
#include "pe/errors.hpp"
#include "pe/rope.hpp"

namespace app {
namespace {

using json = nlohmann::json;

json array_of(const Eigen::ArrayXd& a) {
  json out = json::array();
  for (Eigen::Index i = 0; i < a.size(); ++i) out.push_back(a[i]);
  return out;
}

json scaling_json(const pe::RopeConfig& c, const pe::ScaledFrequencies& r) {
  const pe::RopeScaling& s = c.scaling;
  json j;
  j["type"] = pe::to_string(s.type);
  if (s.type == pe::RopeType::Default) return j;
  j["factor"] = s.factor;
  // What the method actually used (longrope derives the factor from the lengths, as HF).
  j["factor_applied"] = r.factor;
  j["original_max_position_embeddings"] = r.original_max_position_embeddings;
  if (s.attention_factor) j["attention_factor"] = *s.attention_factor;
  switch (s.type) {
    case pe::RopeType::Yarn:
      j["beta_fast"] = s.beta_fast;
      j["beta_slow"] = s.beta_slow;
      if (s.mscale) j["mscale"] = *s.mscale;
      if (s.mscale_all_dim) j["mscale_all_dim"] = *s.mscale_all_dim;
      j["truncate"] = s.truncate;
      j["ramp_low"] = r.yarn_low;  // pairs <= low keep θ_i, pairs >= high get θ_i / factor
      j["ramp_high"] = r.yarn_high;
      break;
    case pe::RopeType::Llama3:
      j["low_freq_factor"] = s.low_freq_factor;
      j["high_freq_factor"] = s.high_freq_factor;
      break;
    case pe::RopeType::LongRope:
      j["short_factor"] = s.short_factor;
      j["long_factor"] = s.long_factor;
      j["uses_long_factor"] = r.uses_long_factor;
      break;
    default:
      break;
  }
  return j;
}

}  // namespace

std::string dump_json(const pe::RopeConfig& c, long long length, long long rows) {
  const pe::ScaledFrequencies r = pe::scaled_frequencies(c, length);
  json j;
  j["name"] = c.name;
  j["title"] = c.title;
  j["source"] = c.source;
  j["theta"] = c.theta;
  j["effective_theta"] = r.effective_theta;
  j["head_dim"] = c.head_dim;
  j["rotary_dim"] = r.rotary_dim;
  j["partial_rotary_factor"] = c.partial_rotary_factor;
  j["max_position_embeddings"] = c.max_position_embeddings;
  j["length"] = length;
  j["convention"] = c.convention == pe::PairConvention::Interleaved ? "interleaved" : "half-split";
  j["scaling"] = scaling_json(c, r);
  j["attention_factor"] = r.attention_factor;  // multiplies cos and sin
  j["logit_scale"] = r.logit_scale;            // net factor on q·k
  // nlohmann prints doubles with 17 significant digits: values round-trip exactly.
  j["inv_freq"] = array_of(r.inv_freq);
  j["original_inv_freq"] = array_of(r.original_inv_freq);
  j["wavelengths"] = array_of(2.0 * std::numbers::pi / r.inv_freq);  // tokens per full turn
  if (rows > 0) {
    // JSON text costs ~14× the float table in memory: cap what one dump prints.
    constexpr long long kMaxDumpEntries = 4'000'000;
    if (rows * r.inv_freq.size() > kMaxDumpEntries)
      throw pe::InvalidArgument("rows", std::to_string(rows),
                                "at most " + std::to_string(kMaxDumpEntries / r.inv_freq.size()) + " rows at " +
                                    std::to_string(r.inv_freq.size()) + " pairs (" + std::to_string(kMaxDumpEntries) +
                                    " cos/sin entries per dump)");
    // cos/sin of p·θ_i for p = 0 ... rows−1 (float32 tables, before attention_factor).
    const pe::RopeTables t = pe::rope_tables(r.inv_freq, rows);
    json cos_rows = json::array(), sin_rows = json::array();
    for (Eigen::Index p = 0; p < t.cos.rows(); ++p) {
      json cr = json::array(), sr = json::array();
      for (Eigen::Index i = 0; i < t.cos.cols(); ++i) {
        cr.push_back(t.cos(p, i));
        sr.push_back(t.sin(p, i));
      }
      cos_rows.push_back(std::move(cr));
      sin_rows.push_back(std::move(sr));
    }
    j["rows"] = {{"first_position", 0}, {"cos", std::move(cos_rows)}, {"sin", std::move(sin_rows)}};
  }
  // A config's name is its directory's name, which may be any bytes: U+FFFD, not a throw.
  return j.dump(2, ' ', false, json::error_handler_t::replace);
}

std::string presets_json() {
  json out = json::array();
  for (const auto& p : pe::list_presets()) out.push_back({{"key", p.key}, {"title", p.title}, {"source", p.source}});
  return out.dump(2);
}

}  // namespace app

int run_dump_command(int argc, char** argv) { return run_dump_command(argc, argv, std::cout, std::cerr); }

int run_dump_command(int argc, char** argv, std::ostream& out, std::ostream& err) {
  CLI::App cli{"Print a RoPE configuration's inverse frequencies, wavelengths and attention factor as JSON.",
               "pe-viz dump"};
  std::optional<std::string> preset, config_path, scaling, convention;
  std::optional<double> theta, factor, partial;
  std::optional<long long> dim, length, original_max;
  long long rows = 0;
  bool list = false;

  auto* preset_opt = cli.add_option("--preset", preset, "Bundled model preset (default: teaching)");
  auto* config_opt = cli.add_option("--config", config_path, "A Hugging Face config.json");
  preset_opt->excludes(config_opt);
  cli.add_option("--theta", theta, "RoPE base (rope_theta)");
  cli.add_option("--dim", dim, "Head dimension (head_dim)");
  cli.add_option("--length", length, "Current sequence length (default: max_position_embeddings)");
  cli.add_option("--scaling", scaling, "Scaling method: default, linear, ntk, dynamic, yarn, llama3, longrope");
  cli.add_option("--factor", factor, "Scaling factor");
  cli.add_option("--original-max-position-embeddings", original_max, "Pretraining context length L_orig");
  cli.add_option("--partial-rotary-factor", partial, "Fraction of head_dim that rotates");
  cli.add_option("--convention", convention, "Pair layout: interleaved or half-split");
  cli.add_option("--rows", rows, "Also print the first N rows of the cos/sin tables")->check(CLI::Range(0LL, 100000LL));
  cli.add_flag("--list-presets", list, "List the bundled presets as JSON and exit");

  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = cli.exit(e, out, err);  // prints --help to out, errors to err
    return code == 0 ? 0 : 2;
  }

  // Option values that are words, checked here so a typo is a command-line error (2).
  pe::RopeType scaling_type{};
  if (scaling) {
    try {
      scaling_type = pe::rope_type_from_string(*scaling);
    } catch (const pe::InvalidArgument& e) {
      err << "pe-viz dump: --scaling: unknown method \"" << *scaling << "\"; expected " << e.allowed() << "\n";
      return 2;
    }
  }
  if (convention && *convention != "interleaved" && *convention != "half-split") {
    err << "pe-viz dump: --convention: expected interleaved or half-split, got \"" << *convention << "\"\n";
    return 2;
  }

  try {
    if (list) {
      out << app::presets_json() << "\n";
      return 0;
    }
    pe::RopeConfig c = config_path ? pe::load_hf_config(*config_path) : pe::load_preset(preset.value_or(pe::kTeachingPreset));
    if (theta) c.theta = *theta;
    if (dim) c.head_dim = *dim;
    if (partial) c.partial_rotary_factor = *partial;
    if (scaling) c.scaling.type = scaling_type;
    if (factor) c.scaling.factor = *factor;
    if (original_max) c.scaling.original_max_position_embeddings = *original_max;
    if (convention) c.convention = *convention == "interleaved" ? pe::PairConvention::Interleaved : pe::PairConvention::HalfSplit;
    out << app::dump_json(c, length.value_or(c.max_position_embeddings), rows) << "\n";
    return 0;
  } catch (const pe::ConfigError& e) {
    const std::string what = e.what();
    const bool names_file = config_path && what.find(*config_path) == std::string::npos;
    err << "pe-viz dump: " << (names_file ? *config_path + ": " : std::string()) << what << "\n";
  } catch (const pe::InvalidArgument& e) {
    err << "pe-viz dump: " << e.what() << "\n";
  } catch (const std::exception& e) {
    err << "pe-viz dump: " << e.what() << "\n";
  }
  return 1;
}
