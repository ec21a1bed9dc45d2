#include "cli/inspect_command.hpp"
#include "cli/json_arrays.hpp"
#include "cli/model_config.hpp"

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <sstream>

#include "pe/models/config.hpp"
#include "pe/base/errors.hpp"
#include "pe/models/hf_cache.hpp"
#include "pe/models/inspection_text.hpp"
#include "state/encoding_json.hpp"

namespace app {
namespace {

using json = nlohmann::json;

// Four significant digits for the table; the JSON keeps every digit.
std::string short_num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

long long comparison_length(const pe::InspectedConfig& in, const InspectOptions& o) {
  return o.length > 0 ? o.length : in.loaded.config.max_position_embeddings;
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

// Layers of a model that does not rotate: both stacks of an encoder–decoder.
long long layer_count(const pe::PositionEncodingInfo& e) { return e.num_hidden_layers + e.num_decoder_layers; }

}  // namespace

std::string inspection_text(const pe::InspectedConfig& in, const InspectOptions& o) {
  std::ostringstream out;
  const pe::RopeConfig& c = in.loaded.config;
  out << "pe-viz inspect: " << in.source;
  if (!in.model_type.empty()) out << " (model_type " << in.model_type << ")";
  out << "\n";
  if (!c.title.empty()) out << "  " << c.title << "\n";
  const bool rotary = in.loaded.encoding.rotates();
  if (in.valid && !rotary) {
    out << "\nPositional encoding (no RoPE: the numbers below are the model's own)\n";
    for (const auto& f : pe::position_encoding_fields(in.loaded.encoding)) out << "  " << f.key << " " << f.value << "\n";
  }
  if (in.valid && rotary) {
    out << "\nPositional encoding rope\n";
    out << "\nConfiguration\n";
    out << "  theta " << pe::plain_number(c.theta) << ", head_dim " << c.head_dim << ", rotary_dim " << c.rotary_dim()
        << ", max_position_embeddings " << c.max_position_embeddings << ", pairs " << pe::to_string(c.convention)
        << "\n";
    out << "  scaling " << pe::describe_scaling(c) << "\n";
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
  if (!rotary) {
    const pe::PositionEncodingInfo& e = in.loaded.encoding;
    out << "\nLayers (" << layer_count(e) << (e.num_decoder_layers ? ": " + std::to_string(e.num_hidden_layers) +
                                                                         " encoder, " + std::to_string(e.num_decoder_layers) +
                                                                         " decoder"
                                                                   : std::string())
        << ")\n  shared: " << e.shared << "\n";
    return out.str();
  }

  out << "\nLayers (" << in.plan.rows.size() << ")\n";
  for (const auto& d : in.plan.notes) out << "  note: " << (d.key.empty() ? "" : d.key + ": ") << d.message << "\n";
  if (o.all_layers) {
    for (const auto& r : in.plan.rows) out << "  " << r.index << "  " << pe::describe_layer(r) << "\n";
  } else {
    for (const auto& g : in.plan.groups())
      out << "  " << g.layers.size() << " × layers " << ranges_brief(g.layers) << ": " << pe::describe_layer(g.row) << "\n";
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
  j["position_encoding"] = pe::to_string(in.loaded.encoding.family);
  if (in.valid && !in.loaded.encoding.rotates()) {
    // The family and its parameters at the top level, as `dump --config` prints them; no
    // inv_freq, no framework comparison (those are RoPE's).
    const pe::PositionEncodingInfo& e = in.loaded.encoding;
    j.update(position_encoding_json(e));
    j["model_type"] = in.model_type;
    j["layers"] = {{"count", layer_count(e)}, {"groups", json::array()}, {"shared", e.shared},
                   {"notes", diagnostics_json(in.plan.notes)}};
  } else if (in.valid) {
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

std::string source_sections_text(const ModelInspection& m) {
  std::ostringstream out;
  if (m.gguf) {
    out << "\nGGUF header (" << m.gguf->architecture << ", llama.cpp rope mode " << pe::to_string(m.gguf->rope_mode) << ")\n";
    for (const auto& e : m.gguf->positional) out << "  " << e.key << " (" << e.type << ") = " << e.preview << "\n";
  }
  if (m.conversion) {
    const pe::ConversionConventions& c = *m.conversion;
    out << "\nConversion from " << m.conversion_config << "\n";
    out << "  checkpoint pairs " << pe::to_string(c.hf) << ", llama.cpp pairs "
        << (c.gguf ? pe::to_string(*c.gguf) : "unknown") << " (rope mode " << pe::to_string(c.rope_mode) << ")\n";
    out << "  q/k rows " << (c.qk_permuted ? "permuted by the converter (convert_hf_to_gguf.py LlamaModel.permute)" : "not permuted")
        << "; " << (c.consistent ? "both sides rotate the same pairs" : "the two sides DISAGREE") << "\n";
    for (const auto& d : c.diagnostics)
      out << "  " << pe::to_string(d.severity) << "  " << (d.key.empty() ? std::string() : d.key + ": ") << d.message << "\n";
  }
  return out.str();
}

namespace {

json source_sections_json(const ModelInspection& m) {
  json j = json::object();
  if (m.gguf) {
    json keys = json::array();
    for (const auto& e : m.gguf->positional) keys.push_back({{"key", e.key}, {"type", e.type}, {"value", e.preview}});
    j["gguf"] = {{"architecture", m.gguf->architecture}, {"rope_mode", pe::to_string(m.gguf->rope_mode)}, {"positional", keys}};
  }
  if (m.conversion) {
    const pe::ConversionConventions& c = *m.conversion;
    j["conversion"] = {{"config", m.conversion_config},
                       {"checkpoint_convention", pe::to_string(c.hf)},
                       {"gguf_convention", c.gguf ? json(pe::to_string(*c.gguf)) : json(nullptr)},
                       {"rope_mode", pe::to_string(c.rope_mode)},
                       {"qk_permuted", c.qk_permuted},
                       {"consistent", c.consistent},
                       {"diagnostics", diagnostics_json(c.diagnostics)}};
  }
  return j;
}

}  // namespace

int print_inspection(const ModelInspection& m, const InspectOptions& o, std::ostream& out, std::ostream& err) {
  const pe::InspectedConfig& in = m.inspected;
  try {
    if (o.json) {
      json j = json::parse(inspection_json(in, o));
      j.update(source_sections_json(m));
      out << j.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
    } else {
      out << inspection_text(in, o) << source_sections_text(m);
    }
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
  std::optional<std::string> preset, config_path, model, gguf;
  InspectOptions options;
  auto* preset_opt = cli.add_option("--preset", preset, "Bundled model preset (see `pe-viz dump --list-presets`)");
  auto* config_opt = cli.add_option("--config", config_path,
                                    "A Hugging Face config.json (with --gguf: the config the GGUF was converted from)");
  auto* model_opt = cli.add_option("--model", model,
                                   "A model in the local Hugging Face cache: ORG/NAME or ORG/NAME@REVISION (offline; with "
                                   "--gguf: the model the GGUF was converted from)");
  auto* gguf_opt = cli.add_option("--gguf", gguf, "A GGUF file (its header and RoPE tensors are read, never the weights)");
  preset_opt->excludes(config_opt)->excludes(model_opt)->excludes(gguf_opt);
  config_opt->excludes(model_opt);
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
  if (!preset && !config_path && !model && !gguf) {
    err << "pe-viz inspect: give a source: --config path/to/config.json, --model ORG/NAME, --gguf FILE.gguf or --preset KEY\n";
    return 2;
  }
  // The file a message should name when core's does not.
  std::string file = gguf ? *gguf : config_path ? *config_path : std::string();
  try {
    std::string hf_config = config_path.value_or("");
    if (model) {
      ensure_model_config(*model, &err);
      hf_config = pe::resolve_cached_model(*model).config_path.string();
      if (!gguf) file = hf_config;
    }
    const ModelInspection m = gguf ? inspect_source(*gguf, hf_config)
                              : preset ? inspect_source("preset:" + *preset)
                                       : inspect_source(hf_config);
    return print_inspection(m, options, out, err);
  } catch (const pe::ConfigError& e) {
    const std::string what = e.what();
    const bool names_file = !file.empty() && what.find(file) == std::string::npos;
    err << "pe-viz inspect: " << (names_file ? file + ": " : std::string()) << what << "\n";
  } catch (const std::exception& e) {
    err << "pe-viz inspect: " << e.what() << "\n";
  }
  return 1;
}

}  // namespace app
