#include "cli/url_fragment.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "export/builtin_lessons.hpp"
#include "export/state_options.hpp"
#include "pe/base/errors.hpp"
#include "pe/encodings/rope.hpp"
#include "pe/scaling/scaling.hpp"
#include "state/session_file.hpp"
#include "state/weights_job.hpp"

namespace app {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string percent_decode(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '+') {
      out += ' ';
    } else if (c == '%' && i + 2 < text.size() && hex_value(text[i + 1]) >= 0 && hex_value(text[i + 2]) >= 0) {
      out += char(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2]));
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

std::string percent_encode(const std::string& text) {
  static const char* const kHex = "0123456789ABCDEF";
  std::string out;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    // What a fragment may hold as it is, less the separators used here ('&', '=', '+').
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       std::string_view("-._~:,/!*'()@;$?").find(char(c)) != std::string_view::npos;
    if (plain) {
      out += char(c);
    } else if (c == ' ') {
      out += '+';
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// The option's name as the command line spells it: "ui_scale" and "--ui-scale" are "ui-scale".
std::string option_name(std::string key) {
  while (!key.empty() && key.front() == '-') key.erase(0, 1);
  std::replace(key.begin(), key.end(), '_', '-');
  return key;
}

bool is_true(const std::string& v) { return v.empty() || v == "1" || v == "true" || v == "yes" || v == "on"; }
bool is_false(const std::string& v) { return v == "0" || v == "false" || v == "no" || v == "off"; }

// One key parsed by the command line's own option definitions into `into`; throws with the
// command line's message (CLI::ParseError or pe::InvalidArgument).
void parse_option(StateOverrides& into, const std::string& name, const std::string& value) {
  CLI::App cli{"url fragment", "pe-viz"};
  add_state_options(cli, into);
  const CLI::Option* option = cli.get_option_no_throw("--" + name);
  if (!option)
    throw std::runtime_error("not a key pe-viz knows (keys are the command-line options without their dashes: view, "
                             "preset, theta, dim, length, scaling, factor, …; pe-viz --help lists them)");
  std::vector<std::string> args;
  if (option->get_expected_max() == 0) {  // a flag: takes no value
    if (is_false(value)) return;
    if (!is_true(value)) throw pe::InvalidArgument(name, value, "nothing, 1 or 0 (a switch)");
    args = {"--" + name};
  } else {
    if (value.empty()) throw pe::InvalidArgument(name, "(nothing)", "a value, as " + name + "=VALUE");
    args = {"--" + name, value};
  }
  // CLI11 reads a vector of arguments back to front.
  std::reverse(args.begin(), args.end());
  cli.parse(args);
}

std::string error_text(const std::exception& e) {
  if (const auto* p = dynamic_cast<const CLI::ParseError*>(&e)) return p->what();
  return e.what();
}

using Pairs = std::vector<std::pair<std::string, std::string>>;

// Applies `keys` (option name, value) onto a copy of `state`; throws like apply_overrides.
AppState applied(const AppState& state, const Pairs& keys) {
  StateOverrides o;
  for (const auto& [name, value] : keys) parse_option(o, name, value);
  AppState s = state;
  apply_overrides(s, o);
  return s;
}

bool is_model_key(const std::string& name) {
  return name == "preset" || name == "config" || name == "model" || name == "gguf";
}

// The options that read a file or a model by name (a path, ORG/NAME in the Hugging Face
// cache). A link is input anyone can send: it sets what is shown, it never makes the app
// read (or, once models come over the network, fetch) something the reader did not choose.
bool is_source_key(const std::string& name) {
  return name == "config" || name == "model" || name == "gguf" || name == "weights";
}

std::string join_sections(const std::vector<long long>& sections) {
  if (sections.empty()) return "auto";
  std::string out;
  for (long long v : sections) out += (out.empty() ? "" : ",") + std::to_string(v);
  return out;
}

// The model's numbers as sessions write them: two states show the same model when these agree.
std::string rope_signature(const pe::RopeConfig& rope) {
  AppState s = default_state();
  s.rope = rope;
  s.rope.name.clear();
  s.rope.title.clear();
  s.rope.source.clear();
  return session_to_json(s);
}

}  // namespace

Pairs split_fragment(const std::string& fragment) {
  Pairs out;
  std::size_t start = 0;
  while (start <= fragment.size()) {
    std::size_t end = fragment.find('&', start);
    if (end == std::string::npos) end = fragment.size();
    const std::string part = fragment.substr(start, end - start);
    if (!part.empty()) {
      const std::size_t eq = part.find('=');
      out.emplace_back(percent_decode(part.substr(0, eq)), eq == std::string::npos ? "" : percent_decode(part.substr(eq + 1)));
    }
    start = end + 1;
  }
  return out;
}

std::string join_fragment(const Pairs& pairs) {
  std::string out;
  for (const auto& [key, value] : pairs) {
    if (!out.empty()) out += '&';
    out += percent_encode(key);
    if (!value.empty()) out += "=" + percent_encode(value);
  }
  return out;
}

std::vector<FragmentProblem> apply_url_fragment(AppState& state, const std::string& fragment, PageRequest* page) {
  std::vector<FragmentProblem> problems;
  Pairs keys;               // option name, value: parsed fine on its own
  std::vector<std::string> written;  // the keys as the fragment spelled them (for messages)
  std::set<std::string> seen;
  std::size_t read = 0;
  for (const auto& [raw_key, value] : split_fragment(fragment)) {
    // Every option and page key fits many times over; a longer link is not one pe-viz wrote
    // and would only keep the page busy (each key is parsed by a command line of its own).
    if (++read > kMaxLinkKeys) {
      problems.push_back({raw_key, "the link has more than " + std::to_string(kMaxLinkKeys) + " keys: the rest are left out"});
      break;
    }
    const std::string name = option_name(raw_key);
    if (!seen.insert(name).second) {
      problems.push_back({raw_key, raw_key + " given twice: the first one applies"});
      continue;
    }
    try {
      if (name == "lesson" || name == "slide" || name == "notes" || name == "bench") {
        PageRequest ignored;
        PageRequest& p = page ? *page : ignored;
        if (name == "lesson") {
          if (value.empty() || !find_builtin_lesson(value))
            throw pe::InvalidArgument("lesson", value.empty() ? "(nothing)" : value,
                                      "a built-in lesson's name (pe-viz lesson --list); a link opens no lesson file, "
                                      "File → Open lesson… does");
          p.lesson = value;
        } else if (name == "notes") {
          if (!is_true(value) && !is_false(value)) throw pe::InvalidArgument("notes", value, "nothing, 1 or 0 (a switch)");
          p.notes = is_true(value);
        } else {
          constexpr long long limit = 100000;
          std::size_t used = 0;
          long long n = 0;
          try {
            n = std::stoll(value, &used);
          } catch (const std::exception&) {
            used = 0;
          }
          if (used == 0 || used != value.size() || n < 1 || n > limit)
            throw pe::InvalidArgument(name, value.empty() ? "(nothing)" : value, "a whole number 1 ... " + std::to_string(limit));
          if (name == "slide") p.slide = std::size_t(n - 1);
          else p.bench_frames = int(n);
        }
        continue;
      }
      if (name == "model" && page && reads_as_model_name(value) && value.find("..") == std::string::npos &&
          value.find('\\') == std::string::npos) {
        page->model = value;  // fetched by name (the Model field), after the rest applies
        continue;
      }
      if (is_source_key(name))
        throw std::runtime_error("a link opens no files or models; open one yourself: drop it on the window or use "
                                 "File → Open… (on the command line, --" + name + ")");
      StateOverrides probe;
      parse_option(probe, name, value);
      keys.emplace_back(name, value);
      written.push_back(raw_key);
    } catch (const std::exception& e) {
      problems.push_back({raw_key, error_text(e)});
    }
  }
  if (keys.empty()) return problems;

  // Values that parse may still be refused once applied (a θ ≤ 1, a position past the
  // length, two model sources): find which, as the command line would name them.
  auto drop = [&](std::size_t i, const std::string& why) {
    problems.push_back({written[i], why});
    keys.erase(keys.begin() + std::ptrdiff_t(i));
    written.erase(written.begin() + std::ptrdiff_t(i));
  };
  try {
    state = applied(state, keys);
    return problems;
  } catch (const std::exception&) {
  }
  // Each key alone: the model keys first, then every other key after the model keys that
  // apply (the model decides, e.g., how many pairs there are).
  for (std::size_t i = keys.size(); i-- > 0;) {
    if (!is_model_key(keys[i].first)) continue;
    try {
      (void)applied(state, {keys[i]});
    } catch (const std::exception& e) {
      drop(i, error_text(e));
    }
  }
  Pairs model;
  for (const auto& k : keys)
    if (is_model_key(k.first)) model.push_back(k);
  for (std::size_t i = keys.size(); i-- > 0;) {
    if (is_model_key(keys[i].first)) continue;
    Pairs alone = model;
    alone.push_back(keys[i]);
    try {
      (void)applied(state, alone);
    } catch (const std::exception& e) {
      drop(i, error_text(e));
    }
  }
  // Then together: the last keys give way first until the rest apply.
  while (!keys.empty()) {
    try {
      state = applied(state, keys);
      return problems;
    } catch (const std::exception& e) {
      drop(keys.size() - 1, error_text(e));
    }
  }
  return problems;
}

Pairs state_option_values(const AppState& s) {
  const auto& r = s.rope;
  // Whole numbers in plain digits (theta=1000000, not 1e+06); others shortest round-trip.
  const auto d = [](double v) {
    if (v == std::floor(v) && std::abs(v) < 1e15) return std::to_string(static_cast<long long>(v));
    return pe::format_double(v);
  };
  const auto i = [](long long v) { return std::to_string(v); };
  return {
      {"view", s.view},
      {"preset", s.preset},
      {"theta", d(r.theta)},
      {"dim", i(r.head_dim)},
      {"length", i(s.length)},
      {"position", i(s.position)},
      {"pair", i(s.pair)},
      {"convention", pe::to_string(r.convention)},
      {"scaling", pe::to_string(r.scaling.type)},
      {"factor", d(r.scaling.factor)},
      {"original-max-position-embeddings", i(r.scaling.original_max_position_embeddings)},
      {"partial-rotary-factor", d(r.partial_rotary_factor)},
      {"p-rope", d(s.p_rope)},
      {"delta-axis", s.delta_axis},
      {"mistake", s.mistake},
      {"samples", i(s.samples)},
      {"seed", std::to_string(s.seed)},
      {"heads", i(s.heads)},
      {"head", i(s.head)},
      {"colormap", to_string(s.colormap)},
      {"ui-scale", d(s.ui_scale)},
      {"line-width", d(s.line_width)},
      {"tokens", s.tokens},
      {"tokens-b", s.tokens_b},
      {"theta-low", d(s.theta_low)},
      {"theta-high", d(s.theta_high)},
      {"walkthrough-step", i(s.walkthrough_step + 1)},
      {"scheme", s.scheme},
      {"sections", join_sections(s.sections)},
      {"prompt", s.prompt},
      {"merge-size", i(s.merge_size)},
      {"sample-fps", d(s.sample_fps)},
      {"rope-index", s.rope_index},
      {"prompt-token", i(s.prompt_token)},
      {"grid-rows", i(s.grid_rows)},
      {"grid-cols", i(s.grid_cols)},
      {"patch-row", i(s.patch_row)},
      {"patch-col", i(s.patch_col)},
      {"qk", s.qk},
      {"num-buckets", i(s.num_buckets)},
      {"max-distance", i(s.max_distance)},
      {"causal", s.causal ? "1" : ""},
      {"position-buckets", i(s.position_buckets)},
      {"max-relative-positions", i(s.max_relative_positions)},
      {"max-position-embeddings", i(s.max_position_embeddings)},
      {"pos-att-type", s.pos_att_type},
      {"position-embedding-type", s.position_embedding_type},
      {"scale-base", d(s.scale_base)},
      {"r1", d(s.r1)},
      {"r2", d(s.r2)},
      {"sandwich-dim", i(s.sandwich_dim)},
      {"fire-c", d(s.fire_c)},
      {"fire-threshold", d(s.fire_threshold)},
      {"cope-text", s.cope_text},
      {"cope-gates", s.cope_gates},
      {"cope-npos-max", i(s.cope_npos_max)},
      {"training-length", i(s.training_length)},
      {"clamp-len", i(s.clamp_len)},
      {"light", s.dark_theme ? "" : "1"},
      {"grid", s.grid ? "1" : ""},
      {"no-pixel-mean", s.pixel_mean ? "" : "1"},
  };
}

std::string url_fragment_for(const AppState& state, bool* exact) {
  const Pairs wanted = state_option_values(state);
  // The preset the model came from, even after its numbers were edited (model_source keeps
  // it): a link says "Llama 3.1 8B with θ = 10⁶", not every number of Llama 3.1 8B.
  std::string preset = state.preset;
  constexpr std::string_view kPresetSource = "preset:";
  if (preset.empty() && state.model_source.rfind(kPresetSource, 0) == 0) preset = state.model_source.substr(kPresetSource.size());
  // What opening the fragment starts from: the defaults, with that preset applied.
  AppState base = default_state();
  if (!preset.empty() && preset != base.preset) {
    try {
      apply_preset(base, preset);
    } catch (const std::exception&) {
      preset.clear();
      base = default_state();
    }
  }
  const Pairs from = state_option_values(base);
  Pairs out;
  for (std::size_t k = 0; k < wanted.size(); ++k) {
    const auto& [name, value] = wanted[k];
    if (name == "view") {
      out.push_back(wanted[k]);  // always: a link names what it shows
    } else if (name == "preset") {
      if (!preset.empty() && preset != default_state().preset) out.emplace_back("preset", preset);
    } else if (value != from[k].second) {
      // A switch stands alone in a link ("&light"), as on the command line.
      const bool flag = name == "light" || name == "grid" || name == "no-pixel-mean" || name == "causal";
      out.emplace_back(name, flag && value == "1" ? std::string() : value);
    }
  }
  if (exact) {
    // Opening it again must give the same numbers; a model from a file may carry more than
    // the options say (LongRoPE's factor lists, a vision tower).
    try {
      AppState opened = default_state();
      const auto problems = apply_url_fragment(opened, join_fragment(out));
      Pairs a = state_option_values(opened), b = wanted;
      const auto without_preset = [](Pairs& p) {
        p.erase(std::remove_if(p.begin(), p.end(), [](const auto& kv) { return kv.first == "preset"; }), p.end());
      };
      without_preset(a);
      without_preset(b);
      *exact = problems.empty() && a == b && rope_signature(opened.rope) == rope_signature(state.rope);
    } catch (const std::exception&) {
      *exact = false;
    }
  }
  return join_fragment(out);
}

}  // namespace app
