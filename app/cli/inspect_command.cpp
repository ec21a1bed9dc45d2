#include "cli/inspect_command.hpp"

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <sstream>

#include "pe/config.hpp"
#include "pe/errors.hpp"

namespace app {
namespace {

using json = nlohmann::json;

// Integral values in plain digits ("500000", not to_chars' shorter "5e+05"), others shortest round-trip.
std::string num(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::abs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  return pe::format_double(v);
}

// Four significant digits for the table; the JSON keeps every digit.
std::string short_num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

long long comparison_length(const pe::InspectedConfig& in, const InspectOptions& o) {
  return o.length > 0 ? o.length : in.loaded.config.max_position_embeddings;
}

std::string scaling_summary(const pe::RopeConfig& c) {
  const pe::RopeScaling& s = c.scaling;
  std::string out = pe::to_string(s.type);
  switch (s.type) {
    case pe::RopeType::Default: break;
    case pe::RopeType::Linear:
    case pe::RopeType::NtkAware:
    case pe::RopeType::Dynamic: out += " factor " + num(s.factor); break;
    case pe::RopeType::Yarn:
      out += " factor " + num(s.factor) + ", L_orig " + std::to_string(c.original_max_position_embeddings()) +
             ", beta_fast " + num(s.beta_fast) + ", beta_slow " + num(s.beta_slow);
      if (s.mscale) out += ", mscale " + num(*s.mscale);
      if (s.mscale_all_dim) out += ", mscale_all_dim " + num(*s.mscale_all_dim);
      if (s.attention_factor) out += ", attention_factor " + num(*s.attention_factor);
      if (!s.truncate) out += ", truncate false";
      break;
    case pe::RopeType::Llama3:
      out += " factor " + num(s.factor) + ", low_freq_factor " + num(s.low_freq_factor) + ", high_freq_factor " +
             num(s.high_freq_factor) + ", L_orig " + std::to_string(c.original_max_position_embeddings());
      break;
    case pe::RopeType::LongRope:
      out += " " + std::to_string(s.short_factor.size()) + " short / " + std::to_string(s.long_factor.size()) +
             " long factors, L_orig " + std::to_string(c.original_max_position_embeddings());
      if (s.attention_factor) out += ", attention_factor " + num(*s.attention_factor);
      break;
  }
  return out;
}

std::string layer_line(const pe::LayerRow& r) {
  std::string out = r.attention;
  if (r.window > 0) out += " (window " + std::to_string(r.window) + ")";
  if (!r.rotary) return out + ", no positional encoding (NoPE)";
  out += ", RoPE θ " + num(r.theta) + ", " + pe::to_string(r.scaling);
  out += ", " + std::to_string(r.rotary_dims) + " of " + std::to_string(r.qk_dims) + " q/k dims rotate";
  return out;
}

std::string ranges_brief(const std::vector<long long>& layers) {
  std::string s = pe::format_layer_ranges(layers);
  if (s.size() > 48) {
    // Periodic patterns (every 4th layer …) make long lists: keep the start and count.
    const auto cut = s.rfind(", ", 40);
    s = s.substr(0, cut == std::string::npos ? 40 : cut) + ", …";
  }
  return s;
}

json diagnostics_json(const std::vector<pe::Diagnostic>& ds) {
  json a = json::array();
  for (const auto& d : ds) a.push_back({{"severity", pe::to_string(d.severity)}, {"key", d.key}, {"message", d.message}});
  return a;
}

json array_of(const Eigen::ArrayXd& v) {
  json a = json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) a.push_back(v[i]);
  return a;
}

}  // namespace

std::string inspection_text(const pe::InspectedConfig& in, const InspectOptions& o) {
  std::ostringstream out;
  const pe::RopeConfig& c = in.loaded.config;
  out << "pe-viz inspect: " << in.source;
  if (!in.model_type.empty()) out << " (model_type " << in.model_type << ")";
  out << "\n";
  if (!c.title.empty()) out << "  " << c.title << "\n";
  if (in.valid) {
    out << "\nConfiguration\n";
    out << "  theta " << num(c.theta) << ", head_dim " << c.head_dim << ", rotary_dim " << c.rotary_dim()
        << ", max_position_embeddings " << c.max_position_embeddings << ", pairs " << pe::to_string(c.convention)
        << "\n";
    out << "  scaling " << scaling_summary(c) << "\n";
  }
  int warnings = 0, errors = 0, infos = 0;
  for (const auto& d : in.loaded.diagnostics) {
    if (d.severity == pe::Severity::Warning) ++warnings;
    else if (d.severity == pe::Severity::Error) ++errors;
    else ++infos;
  }
  out << "\nDiagnostics (" << errors << " error" << (errors == 1 ? "" : "s") << ", " << warnings << " warning"
      << (warnings == 1 ? "" : "s") << ", " << infos << " note" << (infos == 1 ? "" : "s") << ")\n";
  // Errors and warnings first: they are what a reader must see.
  for (pe::Severity sev : {pe::Severity::Error, pe::Severity::Warning, pe::Severity::Info})
    for (const auto& d : in.loaded.diagnostics)
      if (d.severity == sev)
        out << "  " << pe::to_string(d.severity) << (sev == pe::Severity::Info ? "     " : sev == pe::Severity::Error ? "    " : "  ")
            << (d.key.empty() ? std::string() : d.key + (d.message.rfind("= ", 0) == 0 ? " " : ": ")) << d.message
            << "\n";
  if (!in.valid) return out.str();

  out << "\nLayers (" << in.plan.rows.size() << ")\n";
  for (const auto& d : in.plan.notes) out << "  note: " << (d.key.empty() ? "" : d.key + ": ") << d.message << "\n";
  if (o.all_layers) {
    for (const auto& r : in.plan.rows) out << "  " << r.index << "  " << layer_line(r) << "\n";
  } else {
    for (const auto& g : in.plan.groups())
      out << "  " << g.layers.size() << " × layers " << ranges_brief(g.layers) << ": " << layer_line(g.row) << "\n";
  }

  const long long length = comparison_length(in, o);
  const pe::FrameworkComparison cmp = pe::compare_frameworks(c, length, in.frameworks);
  out << "\nFrameworks at length " << length << " (differences relative to transformers)\n";
  char line[512];
  std::snprintf(line, sizeof line, "  %-13s %-10s %-11s %-12s %s\n", "framework", "attention", "logit scale",
                "max dθ/θ", "method");
  out << line;
  for (const auto& r : cmp.results) {
    std::snprintf(line, sizeof line, "  %-13s %-10.6g %-11.6g %-12s %s%s\n", pe::to_string(r.framework),
                  r.attention_factor, r.logit_scale,
                  r.framework == pe::Framework::Transformers ? "(reference)" : short_num(r.max_rel_diff_inv_freq).c_str(),
                  r.method.c_str(), r.supported ? "" : " [not supported]");
    out << line;
  }
  for (const auto& r : cmp.results) {
    for (const auto& n : r.notes) out << "  " << pe::to_string(r.framework) << ": " << n << "\n";
    if (!r.cause.empty()) out << "  " << pe::to_string(r.framework) << " differs: " << r.cause << "\n";
  }
  if (cmp.max_rel_diff > 0.0)
    out << "  largest difference: " << short_num(cmp.max_rel_diff) << " relative (" << pe::to_string(cmp.worst) << "): "
        << cmp.cause << "\n";
  else
    out << "  all three agree\n";
  return out.str();
}

std::string inspection_json(const pe::InspectedConfig& in, const InspectOptions& o) {
  const pe::RopeConfig& c = in.loaded.config;
  json j;
  j["source"] = in.source;
  j["model_type"] = in.model_type;
  j["text_block"] = in.text_block;
  j["valid"] = in.valid;
  j["diagnostics"] = diagnostics_json(in.loaded.diagnostics);
  if (in.valid) {
    j["config"] = {{"name", c.name},
                   {"title", c.title},
                   {"theta", c.theta},
                   {"head_dim", c.head_dim},
                   {"rotary_dim", c.rotary_dim()},
                   {"partial_rotary_factor", c.partial_rotary_factor},
                   {"max_position_embeddings", c.max_position_embeddings},
                   {"convention", pe::to_string(c.convention)},
                   {"scaling", pe::to_string(c.scaling.type)},
                   {"factor", c.scaling.factor},
                   {"original_max_position_embeddings", c.original_max_position_embeddings()}};
    json groups = json::array();
    for (const auto& g : in.plan.groups()) {
      groups.push_back({{"layers", g.layers},
                        {"ranges", pe::format_layer_ranges(g.layers)},
                        {"attention", g.row.attention},
                        {"rotary", g.row.rotary},
                        {"window", g.row.window},
                        {"theta", g.row.theta},
                        {"scaling", pe::to_string(g.row.scaling)},
                        {"rotary_dims", g.row.rotary_dims},
                        {"qk_dims", g.row.qk_dims}});
    }
    j["layers"] = {{"count", in.plan.rows.size()}, {"groups", groups}, {"notes", diagnostics_json(in.plan.notes)}};
    const long long length = comparison_length(in, o);
    const pe::FrameworkComparison cmp = pe::compare_frameworks(c, length, in.frameworks);
    json results = json::array();
    for (const auto& r : cmp.results)
      results.push_back({{"framework", pe::to_string(r.framework)},
                         {"supported", r.supported},
                         {"method", r.method},
                         {"inv_freq", array_of(r.inv_freq)},
                         {"attention_factor", r.attention_factor},
                         {"logit_scale", r.logit_scale},
                         {"scaling_length", r.scaling_length},
                         {"uses_long_factor", r.uses_long_factor},
                         {"notes", r.notes},
                         {"max_rel_diff_inv_freq", r.max_rel_diff_inv_freq},
                         {"worst_pair", r.worst_pair},
                         {"rel_diff_attention", r.rel_diff_attention},
                         {"rel_diff_logit_scale", r.rel_diff_logit_scale},
                         {"cause", r.cause}});
    j["frameworks"] = {{"length", length},
                       {"results", results},
                       {"max_rel_diff", cmp.max_rel_diff},
                       {"worst", pe::to_string(cmp.worst)},
                       {"cause", cmp.cause}};
  }
  return j.dump(2, ' ', false, json::error_handler_t::replace);
}

int print_inspection(const pe::InspectedConfig& in, const InspectOptions& o, std::ostream& out, std::ostream& err) {
  try {
    out << (o.json ? inspection_json(in, o) : inspection_text(in, o)) << (o.json ? "\n" : "");
  } catch (const std::exception& e) {
    err << "pe-viz inspect: " << e.what() << "\n";
    return 1;
  }
  if (!in.valid) {
    for (const auto& d : in.loaded.diagnostics)
      if (d.severity == pe::Severity::Error)
        err << "pe-viz inspect: " << in.source << ": " << (d.key.empty() ? "" : d.key + ": ") << d.message << "\n";
    return 1;
  }
  return 0;
}

int run_inspect_command(int argc, char** argv) { return run_inspect_command(argc, argv, std::cout, std::cerr); }

int run_inspect_command(int argc, char** argv, std::ostream& out, std::ostream& err) {
  CLI::App cli{"Show what a model configuration says about positions: each positional key and how it is used "
               "(defaults, ignored or misspelt keys, contradictions), the per-layer plan, and what "
               "transformers, vLLM and llama.cpp compute from it.",
               "pe-viz inspect"};
  std::optional<std::string> preset, config_path;
  InspectOptions options;
  auto* preset_opt = cli.add_option("--preset", preset, "Bundled model preset (see `pe-viz dump --list-presets`)");
  auto* config_opt = cli.add_option("--config", config_path, "A Hugging Face config.json");
  preset_opt->excludes(config_opt);
  // --model (Hugging Face cache) and --gguf sources: their readers yield a pe::LoadedConfig;
  // add the options here and call print_inspection(pe::inspect_loaded(loaded, source), ...).
  cli.add_option("--length", options.length,
                 "Current sequence length for the framework comparison (default: max_position_embeddings)")
      ->check(CLI::Range(1LL, pe::kMaxLength));
  cli.add_flag("--json", options.json, "Print the inspection as JSON");
  cli.add_flag("--layers", options.all_layers, "One line per layer instead of groups of alike layers");
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = cli.exit(e, out, err);
    return code == 0 ? 0 : 2;
  }
  if (!preset && !config_path) {
    err << "pe-viz inspect: give a source: --config path/to/config.json or --preset KEY\n";
    return 2;
  }
  try {
    const pe::InspectedConfig in = config_path ? pe::inspect_hf_config_file(*config_path) : pe::inspect_preset(*preset);
    return print_inspection(in, options, out, err);
  } catch (const pe::ConfigError& e) {
    const std::string what = e.what();
    const bool names_file = config_path && what.find(*config_path) == std::string::npos;
    err << "pe-viz inspect: " << (names_file ? *config_path + ": " : std::string()) << what << "\n";
  } catch (const std::exception& e) {
    err << "pe-viz inspect: " << e.what() << "\n";
  }
  return 1;
}

}  // namespace app
