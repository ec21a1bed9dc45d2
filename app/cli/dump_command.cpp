#include "cli/dump_command.hpp"
#include "cli/dump_encoding.hpp"
#include "cli/json_arrays.hpp"
#include "cli/model_config.hpp"

#include <CLI/CLI.hpp>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <numbers>
#include <optional>
#include <ostream>

#include "export/state_options.hpp"
#include "pe/models/config.hpp"
#include "pe/models/config_diagnostics.hpp"
#include "pe/models/config_emit.hpp"
#include "pe/base/errors.hpp"
#include "pe/models/gguf_rope.hpp"
#include "pe/models/hf_cache.hpp"
#include "pe/multimodal/multimodal.hpp"
#include "pe/encodings/rope.hpp"
#include "state/encoding_json.hpp"

namespace app {
namespace {

using json = nlohmann::json;

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

// ---- Multimodal (issue 12) ----------------------------------------------------------

// Each token's ids are JSON numbers in three arrays: cap what one dump prints, as --rows does.
constexpr long long kMaxDumpPositionTokens = 1'000'000;

json mrope_json(const pe::RopeConfig& c, long long length) {
  const pe::MultiAxisLayout l = pe::multi_axis_layout(c, length);
  const pe::MultiAxisRope& m = *c.multimodal.multi_axis;
  json j;
  j["scheme"] = pe::to_string(l.scheme);
  j["sections"] = m.sections;  // rotary pairs per axis (t, h, w)
  j["section_unit"] = "pairs";
  j["axes"] = {"t", "h", "w"};
  json axis = json::array();
  for (Eigen::Index i = 0; i < l.axis_of_pair.size(); ++i) axis.push_back(l.axis_of_pair[i]);
  j["axis_of_pair"] = std::move(axis);  // in the rotary order of inv_freq
  j["inv_freq_of_pair"] = array_of(l.inv_freq_of_pair);
  const auto per_axis = l.pairs_per_axis();
  j["pairs_per_axis"] = {per_axis[0], per_axis[1], per_axis[2]};
  j["convention"] = pe::to_string(l.convention);
  if (l.scheme == pe::MultiAxisScheme::Vision2D) j["variant"] = pe::to_string(l.vision_variant);
  if (l.position_offset != 0.0) j["position_offset"] = l.position_offset;
  if (pe::is_language_mrope(l.scheme)) {
    const pe::MultimodalRope& mm = c.multimodal;
    j["rope_index"] = {{"family", pe::to_string(mm.rope_index)},
                       {"spatial_merge_size", mm.spatial_merge_size},
                       {"temporal_patch_size", mm.temporal_patch_size},
                       {"tokens_per_second", mm.tokens_per_second}};
  }
  return j;
}

json position_ids_json(const pe::RopeConfig& c, const app::MultimodalDumpOptions& o) {
  const auto& m = c.multimodal.multi_axis;
  if (!m || !pe::is_language_mrope(m->scheme))
    throw pe::InvalidArgument("--prompt", "\"" + pe::format_prompt_spec(*o.prompt) + "\"",
                              "position ids are built for a VLM language model with M-RoPE (mrope_section); \"" +
                                  c.name + "\" has " +
                                  (m ? std::string(pe::to_string(m->scheme)) + " rotary" : std::string("1D RoPE")));
  pe::RopeIndexOptions options = pe::rope_index_options(c, o.sample_fps);
  options.version = o.version;
  pe::PositionIds ids;
  try {
    ids = pe::rope_index(*o.prompt, options);
  } catch (const pe::InvalidArgument& e) {
    // Name the option the value came from.
    const std::string& p = e.parameter();
    throw pe::InvalidArgument(p == "prompt" ? "--prompt" : (p == "sample_fps" ? "--sample-fps" : p), e.value(), e.allowed());
  }
  if (ids.tokens() > kMaxDumpPositionTokens)
    throw pe::InvalidArgument("--prompt", std::to_string(ids.tokens()) + " tokens",
                              "at most " + std::to_string(kMaxDumpPositionTokens) + " tokens per dump");
  json items = json::array();
  long long first = 0;
  for (const pe::PromptItem& p : *o.prompt) {
    const long long m_size = options.spatial_merge_size;
    const long long n = p.kind == pe::PromptItemKind::Text ? p.tokens : p.t * (p.h / m_size) * (p.w / m_size);
    items.push_back({{"kind", pe::to_string(p.kind)}, {"first_token", first}, {"tokens", n}});
    first += n;
  }
  json j;
  j["prompt"] = pe::format_prompt_spec(*o.prompt);
  j["family"] = pe::to_string(options.family);
  j["version"] = pe::to_string(options.version);
  j["sample_fps"] = options.sample_fps;
  j["tokens"] = ids.tokens();
  j["items"] = std::move(items);
  j["t"] = ids.t;
  j["h"] = ids.h;
  j["w"] = ids.w;
  j["rope_delta"] = ids.rope_delta;  // max id + 1 − tokens (HF's mrope_position_deltas)
  return j;
}

void add_multimodal(json& j, const pe::RopeConfig& c, long long length, const app::MultimodalDumpOptions& o) {
  const pe::MultimodalRope& mm = c.multimodal;
  if (mm.multi_axis) j["mrope"] = mrope_json(c, length);
  if (mm.vision_tower) {
    const pe::VisionTowerRope& v = *mm.vision_tower;
    j["vision_tower"] = {{"variant", pe::to_string(v.variant)}, {"head_dim", v.head_dim}, {"theta", v.theta},
                         {"patch_size", v.patch_size}};
  }
  if (!mm.notes.empty()) j["multimodal_notes"] = mm.notes;
  if (o.prompt) j["position_ids"] = position_ids_json(c, o);
}

}  // namespace

std::string dump_json(const pe::RopeConfig& c, long long length, long long rows) {
  return dump_json(c, length, rows, DumpSource{}, MultimodalDumpOptions{});
}

std::string dump_json(const pe::RopeConfig& c, long long length, long long rows, const DumpSource& source,
                      const MultimodalDumpOptions& mm) {
  const pe::ScaledFrequencies r = pe::scaled_frequencies(c, length);
  json j;
  j["name"] = c.name;
  j["title"] = c.title;
  j["source"] = c.source;
  j["position_encoding"] = "rope";  // every document with inv_freq is a rotary one (issue 33)
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
  // Tokens per full turn; null for a pair that does not turn (frequency 0: proportional RoPE).
  json waves = json::array();
  for (Eigen::Index i = 0; i < r.inv_freq.size(); ++i)
    waves.push_back(r.inv_freq[i] > 0.0 ? json(2.0 * std::numbers::pi / r.inv_freq[i]) : json(nullptr));
  j["wavelengths"] = std::move(waves);
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
  if (!source.kind.empty()) {
    json diags = json::array();
    for (const auto& d : source.diagnostics)
      diags.push_back({{"severity", pe::to_string(d.severity)}, {"key", d.key}, {"message", d.message}});
    j["origin"] = {{"kind", source.kind}, {"path", source.path}, {"diagnostics", std::move(diags)}};
    if (!source.architecture.empty()) j["origin"]["architecture"] = source.architecture;
    if (!source.rope_mode.empty()) j["rope_mode"] = source.rope_mode;  // llama.cpp's; "convention" follows from it
  }
  add_multimodal(j, c, length, mm);
  // A config's name is its directory's name, which may be any bytes: U+FFFD, not a throw.
  return j.dump(2, ' ', false, json::error_handler_t::replace);
}

std::string family_dump_json(const pe::LoadedConfig& loaded, const DumpSource& source) {
  const pe::RopeConfig& c = loaded.config;
  json j = position_encoding_json(loaded.encoding);
  j["name"] = c.name;
  j["title"] = c.title;
  j["source"] = c.source;
  if (!source.kind.empty()) {
    json diags = json::array();
    for (const auto& d : source.diagnostics)
      diags.push_back({{"severity", pe::to_string(d.severity)}, {"key", d.key}, {"message", d.message}});
    j["origin"] = {{"kind", source.kind}, {"path", source.path}, {"diagnostics", std::move(diags)}};
  }
  return j.dump(2, ' ', false, json::error_handler_t::replace);
}

std::string presets_json() {
  json out = json::array();
  for (const auto& p : pe::list_presets(pe::PresetKinds::All))
    out.push_back({{"key", p.key}, {"title", p.title}, {"source", p.source}, {"position_encoding", pe::to_string(p.family)}});
  return out.dump(2);
}

}  // namespace app

int run_dump_command(int argc, char** argv) { return run_dump_command(argc, argv, std::cout, std::cerr); }

int run_dump_command(int argc, char** argv, std::ostream& out, std::ostream& err) {
  CLI::App cli{"Print a RoPE configuration's inverse frequencies, wavelengths and attention factor as JSON; for a model "
               "that does not rotate (GPT-2, BERT, T5, BLOOM, ...), its positional encoding family and parameters "
               "(\"position_encoding\", max_position_embeddings, position_offset, alibi_slopes, ...).",
               "pe-viz dump"};
  std::optional<std::string> preset, config_path, model, gguf_path, scaling, convention;
  std::optional<double> theta, factor, partial;
  std::optional<long long> dim, length, original_max;
  long long rows = 0;
  bool list = false;
  std::optional<std::string> tower, prompt_text, rope_index_version, emit_shape;
  double sample_fps = 2.0;

  auto* preset_opt = cli.add_option("--preset", preset, "Bundled model preset (default: teaching)");
  auto* config_opt = cli.add_option("--config", config_path, "A Hugging Face config.json");
  preset_opt->excludes(config_opt);
  cli.add_option("--model", model, "A model in the local Hugging Face cache: ORG/NAME[@REVISION] (offline)");
  cli.add_option("--gguf", gguf_path, "A GGUF model file (header and RoPE factor tensors only)");
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
  cli.add_option("--emit-config", emit_shape,
                 "Write the --config / --preset / --model file's config.json in the other shape and exit: v5 "
                 "(rope_parameters, as transformers 5 saves it) or v4 (rope_scaling + rope_theta)");
  cli.add_option("--tower", tower, "VLMs: language (default) or vision (the vision encoder's 2D RoPE)");
  cli.add_option("--prompt", prompt_text,
                 "VLMs: position ids for a prompt, e.g. \"text:5,image:1x8x12,video:4x8x8\" (grids before merging)");
  cli.add_option("--sample-fps,--fps", sample_fps,
                 "Sampled video frames per second for Qwen2.5-VL's time alignment (default 2; --fps is the same option "
                 "in dump, which writes no video)");
  cli.add_option("--rope-index", rope_index_version,
                 "get_rope_index rule: transformers-4 (default, as the models shipped) or transformers-5");

  app::EncodingDumpOptions encoding;  // --encoding t5, deberta, xpos, ... (dump_encoding.hpp)
  app::add_encoding_dump_options(cli, encoding);

  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = cli.exit(e, out, err);  // prints --help to out, errors to err
    return code == 0 ? 0 : 2;
  }
  if (const std::optional<int> code = app::run_encoding_dump(cli, encoding, out, err)) return *code;

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
  try {
    app::require_one_model_source(preset.has_value(), config_path.has_value(), model.has_value(), gguf_path.has_value());
  } catch (const pe::InvalidArgument& e) {
    err << "pe-viz dump: " << e.what() << "\n";
    return 2;
  }
  if (convention && *convention != "interleaved" && *convention != "half-split") {
    err << "pe-viz dump: --convention: expected interleaved or half-split, got \"" << *convention << "\"\n";
    return 2;
  }
  if (tower && *tower != "language" && *tower != "vision") {
    err << "pe-viz dump: --tower: expected language or vision, got \"" << *tower << "\"\n";
    return 2;
  }
  app::MultimodalDumpOptions multimodal;
  if (rope_index_version) {
    try {
      multimodal.version = pe::rope_index_version_from_string(*rope_index_version, "--rope-index");
    } catch (const pe::InvalidArgument& e) {
      err << "pe-viz dump: --rope-index: unknown rule \"" << *rope_index_version << "\"; expected " << e.allowed()
          << "\n";
      return 2;
    }
  }
  if (!std::isfinite(sample_fps) || sample_fps <= 0.0 || sample_fps > 1e6) {
    err << "pe-viz dump: --sample-fps: expected sampled frames per second, > 0 and at most 1e6, got " << sample_fps << "\n";
    return 2;
  }
  multimodal.sample_fps = sample_fps;

  std::optional<pe::ConfigShape> emit;
  if (emit_shape) {
    try {
      emit = pe::config_shape_from_string(*emit_shape, "--emit-config");
    } catch (const pe::InvalidArgument& e) {
      err << "pe-viz dump: --emit-config: expected v4 or v5, got \"" << *emit_shape << "\"\n";
      return 2;
    }
    if (gguf_path) {
      err << "pe-viz dump: --emit-config writes a config.json; a GGUF file has none (give --config, --preset or --model)\n";
      return 2;
    }
  }

  try {
    if (list) {
      out << app::presets_json() << "\n";
      return 0;
    }
    if (emit) {
      std::string text, name;
      if (config_path) text = pe::read_config_text(*config_path), name = *config_path;
      else if (model) app::ensure_model_config(*model, &err), name = pe::resolve_cached_model(*model).config_path.string(), text = pe::read_config_text(name);
      else name = preset.value_or(pe::kTeachingPreset), text = pe::preset_text(name);
      out << pe::emit_config(text, *emit, name);
      return 0;
    }
    // Options outside their documented range are refused even where this configuration
    // would not use them (the same checks as the GUI's options, state_options.cpp).
    if (factor && !(std::isfinite(*factor) && *factor >= 1.0))
      throw pe::InvalidArgument("factor", pe::format_double(*factor), "a finite number >= 1");
    if (original_max) pe::require_length("original-max-position-embeddings", *original_max);
    if (prompt_text) {
      try {
        multimodal.prompt = pe::parse_prompt_spec(*prompt_text);
      } catch (const pe::InvalidArgument& e) {
        throw pe::InvalidArgument("--prompt", e.value(), e.allowed());
      }
    }
    pe::RopeConfig c;
    app::DumpSource source;
    // A model that does not rotate: its family and parameters, no inv_freq. The RoPE options
    // have nothing to change there, so naming one is a command-line error.
    auto family_document = [&](const pe::LoadedConfig& loaded) {
      for (const auto& [given, option] :
           {std::pair{theta.has_value(), "--theta"}, {dim.has_value(), "--dim"}, {partial.has_value(), "--partial-rotary-factor"},
            {scaling.has_value(), "--scaling"}, {factor.has_value(), "--factor"},
            {original_max.has_value(), "--original-max-position-embeddings"}, {convention.has_value(), "--convention"},
            {rows > 0, "--rows"}, {length.has_value(), "--length"}, {tower.has_value(), "--tower"},
            {prompt_text.has_value(), "--prompt"}})
        if (given) {
          err << "pe-viz dump: " << option << ": " << loaded.config.name << " does not rotate (position_encoding "
              << pe::to_string(loaded.encoding.family) << "); RoPE options apply to rotary models only\n";
          return 2;
        }
      out << app::family_dump_json(loaded, source) << "\n";
      return 0;
    };
    if (gguf_path) {
      pe::GgufModelConfig m = pe::load_gguf_config(*gguf_path);
      c = m.loaded.config;
      source = {"gguf", *gguf_path, m.architecture, pe::to_string(m.rope_mode), std::move(m.loaded.diagnostics)};
    } else if (model) {
      app::ensure_model_config(*model, &err);
      const pe::CachedModel where = pe::resolve_cached_model(*model);
      pe::LoadedConfig loaded = pe::load_cached_model_config(*model);
      source = {"model", where.config_path.string(), "", "", loaded.diagnostics};
      if (!loaded.encoding.rotates()) return family_document(loaded);
      c = loaded.config;
    } else {
      const pe::LoadedConfig loaded = config_path ? pe::load_hf_config_diagnosed(*config_path)
                                                  : pe::load_preset_diagnosed(preset.value_or(pe::kTeachingPreset));
      if (!loaded.encoding.rotates()) return family_document(loaded);
      c = loaded.config;
    }
    if (tower && *tower == "vision") {
      if (!c.multimodal.vision_tower && c.multimodal.multi_axis &&
          c.multimodal.multi_axis->scheme == pe::MultiAxisScheme::Vision2D) {
        // Already a vision encoder (e.g. the qwen2-vl-vision preset).
      } else if (!c.multimodal.vision_tower) {
        throw pe::InvalidArgument("--tower", "vision",
                                  "a VLM config whose vision_config has a rotary embedding; \"" + c.name +
                                      "\" has no vision tower");
      } else {
        c = pe::vision_tower_config(c);
      }
    }
    if (theta) c.theta = *theta;
    if (dim) c.head_dim = *dim;
    if (partial) c.partial_rotary_factor = *partial;
    if (scaling) c.scaling.type = scaling_type;
    if (factor) c.scaling.factor = *factor;
    if (original_max) c.scaling.original_max_position_embeddings = *original_max;
    if (convention) c.convention = *convention == "interleaved" ? pe::PairConvention::Interleaved : pe::PairConvention::HalfSplit;
    const std::string document =
        app::dump_json(c, length.value_or(c.max_position_embeddings), rows, source, multimodal);
    pe::OptionsGiven given;
    given.factor = factor.has_value();
    given.original_max_position_embeddings = original_max.has_value();
    given.length = length.has_value();
    for (const auto& note : pe::ineffective_option_notes(c, given)) err << "pe-viz dump: note: " << note << "\n";
    out << document << "\n";
    return 0;
  } catch (const pe::ConfigError& e) {
    const std::string what = e.what();
    const std::optional<std::string>& file = gguf_path ? gguf_path : config_path;
    const bool names_file = file && what.find(*file) == std::string::npos;
    err << "pe-viz dump: " << (names_file ? *file + ": " : std::string()) << what << "\n";
  } catch (const pe::InvalidArgument& e) {
    err << "pe-viz dump: " << e.what() << "\n";
  } catch (const std::exception& e) {
    err << "pe-viz dump: " << e.what() << "\n";
  }
  return 1;
}
