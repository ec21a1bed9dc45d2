#include "export/lesson_validation.hpp"

#include <cmath>
#include <functional>
#include <stdexcept>

#include "export/state_options.hpp"
#include "pe/models/config.hpp"
#include "pe/base/errors.hpp"
#include "views/view.hpp"

namespace app {
namespace {

using Kind = pe::ParameterInfo::Kind;
using pe::AnimationScale;

// One settable key: how the table describes it and which StateOverrides field it fills.
struct Setter {
  pe::ParameterInfo info;
  std::function<void(StateOverrides&, const std::string& text, double number)> set;
};

long long whole(double v) {
  // Values were checked integral by check_lesson / rounded by track_value; this guards range.
  if (!(std::abs(v) < 9.0e18)) throw std::out_of_range("value out of range");
  return std::llround(v);
}

// The command-line state options (export/state_options.cpp), by the same names. Log scale by
// default where the quantity spans decades (θ 10^2 ... 10^7, L 10^2 ... 10^6). Flags (--light,
// --grid, --no-pixel-mean) are display choices of the lecturer, not of a slide.
const std::vector<Setter>& setters() {
  static const std::vector<Setter> table = {
      {{"view", Kind::Text}, [](StateOverrides& o, const std::string& t, double) { o.view = t; }},
      {{"preset", Kind::Text}, [](StateOverrides& o, const std::string& t, double) { o.preset = t; }},
      {{"config", Kind::Text}, [](StateOverrides& o, const std::string& t, double) { o.config = t; }},
      {{"model", Kind::Text}, [](StateOverrides& o, const std::string& t, double) { o.model = t; }},
      {{"gguf", Kind::Text}, [](StateOverrides& o, const std::string& t, double) { o.gguf = t; }},
      {{"theta", Kind::Number, true, AnimationScale::Log}, [](StateOverrides& o, const std::string&, double v) { o.theta = v; }},
      {{"dim", Kind::Integer, true, AnimationScale::Linear, 2},  // RoPE rotates pairs: even d
       [](StateOverrides& o, const std::string&, double v) { o.dim = whole(v); }},
      {{"length", Kind::Integer, true, AnimationScale::Log}, [](StateOverrides& o, const std::string&, double v) { o.length = whole(v); }},
      {{"position", Kind::Integer, true}, [](StateOverrides& o, const std::string&, double v) { o.position = whole(v); }},
      {{"pair", Kind::Integer, true}, [](StateOverrides& o, const std::string&, double v) { o.pair = whole(v); }},
      {{"convention", Kind::Text}, [](StateOverrides& o, const std::string& t, double) { o.convention = t; }},
      {{"scaling", Kind::Text}, [](StateOverrides& o, const std::string& t, double) { o.scaling = t; }},
      {{"factor", Kind::Number, true}, [](StateOverrides& o, const std::string&, double v) { o.factor = v; }},
      {{"original-max-position-embeddings", Kind::Integer, true, AnimationScale::Log},
       [](StateOverrides& o, const std::string&, double v) { o.original_max_position_embeddings = whole(v); }},
      {{"partial-rotary-factor", Kind::Number, true},
       [](StateOverrides& o, const std::string&, double v) { o.partial_rotary_factor = v; }},
      {{"delta-axis", Kind::Text}, [](StateOverrides& o, const std::string& t, double) { o.delta_axis = t; }},
      {{"mistake", Kind::Text}, [](StateOverrides& o, const std::string& t, double) { o.mistake = t; }},
      {{"samples", Kind::Integer, true}, [](StateOverrides& o, const std::string&, double v) { o.samples = whole(v); }},
      {{"seed", Kind::Text}, [](StateOverrides& o, const std::string& t, double) { o.seed = t; }},
      {{"heads", Kind::Integer, true}, [](StateOverrides& o, const std::string&, double v) { o.heads = whole(v); }},
      {{"head", Kind::Integer, true}, [](StateOverrides& o, const std::string&, double v) { o.head = whole(v); }},
      {{"colormap", Kind::Text}, [](StateOverrides& o, const std::string& t, double) { o.colormap = t; }},
      // The UI scale rebuilds the font atlas: a slide may set it, an animation may not.
      {{"ui-scale", Kind::Number, false}, [](StateOverrides& o, const std::string&, double v) { o.ui_scale = v; }},
      {{"line-width", Kind::Number, true}, [](StateOverrides& o, const std::string&, double v) { o.line_width = v; }},
      {{"tokens", Kind::Text}, [](StateOverrides& o, const std::string& t, double) { o.tokens = t; }},
      {{"tokens-b", Kind::Text}, [](StateOverrides& o, const std::string& t, double) { o.tokens_b = t; }},
      {{"p-rope", Kind::Number, true}, [](StateOverrides& o, const std::string&, double v) { o.p_rope = v; }},
      {{"theta-low", Kind::Number, true, AnimationScale::Log},
       [](StateOverrides& o, const std::string&, double v) { o.theta_low = v; }},
      {{"theta-high", Kind::Number, true, AnimationScale::Log},
       [](StateOverrides& o, const std::string&, double v) { o.theta_high = v; }},
      {{"walkthrough-step", Kind::Integer, true},
       [](StateOverrides& o, const std::string&, double v) { o.walkthrough_step = whole(v); }},
      // Multimodal views (issue 12).
      {{"scheme", Kind::Text}, [](StateOverrides& o, const std::string& t, double) { o.scheme = t; }},
      {{"sections", Kind::Text}, [](StateOverrides& o, const std::string& t, double) { o.sections = t; }},
      {{"prompt", Kind::Text}, [](StateOverrides& o, const std::string& t, double) { o.prompt = t; }},
      {{"merge-size", Kind::Integer, true}, [](StateOverrides& o, const std::string&, double v) { o.merge_size = whole(v); }},
      {{"sample-fps", Kind::Number, true}, [](StateOverrides& o, const std::string&, double v) { o.sample_fps = v; }},
      {{"rope-index", Kind::Text}, [](StateOverrides& o, const std::string& t, double) { o.rope_index = t; }},
      {{"prompt-token", Kind::Integer, true}, [](StateOverrides& o, const std::string&, double v) { o.prompt_token = whole(v); }},
      {{"grid-rows", Kind::Integer, true}, [](StateOverrides& o, const std::string&, double v) { o.grid_rows = whole(v); }},
      {{"grid-cols", Kind::Integer, true}, [](StateOverrides& o, const std::string&, double v) { o.grid_cols = whole(v); }},
      {{"patch-row", Kind::Integer, true}, [](StateOverrides& o, const std::string&, double v) { o.patch_row = whole(v); }},
      {{"patch-col", Kind::Integer, true}, [](StateOverrides& o, const std::string&, double v) { o.patch_col = whole(v); }},
      {{"qk", Kind::Text}, [](StateOverrides& o, const std::string& t, double) { o.qk = t; }},
      // Frequency usage (issue 26): a model's weights (a path, relative to the lesson when it is
      // there, or ORG/NAME in the Hugging Face cache) and the layer shown.
      {{"weights", Kind::Text}, [](StateOverrides& o, const std::string& t, double) { o.weights = t; }},
      {{"weights-layer", Kind::Integer, true}, [](StateOverrides& o, const std::string&, double v) { o.weights_layer = whole(v); }},
      // Relative positions and length extrapolation (issue 32). `causal` is a slide's choice
      // (encoder or decoder buckets), so unlike the display switches it is settable: true / false.
      {{"num-buckets", Kind::Integer, true}, [](StateOverrides& o, const std::string&, double v) { o.num_buckets = whole(v); }},
      {{"max-distance", Kind::Integer, true, AnimationScale::Log},
       [](StateOverrides& o, const std::string&, double v) { o.max_distance = whole(v); }},
      {{"causal", Kind::Text},
       [](StateOverrides& o, const std::string& t, double) {
         if (t != "true" && t != "false") throw pe::InvalidArgument("causal", t, "true or false");
         o.causal = t == "true";
       }},
      {{"position-buckets", Kind::Integer, true},
       [](StateOverrides& o, const std::string&, double v) { o.position_buckets = whole(v); }},
      {{"max-relative-positions", Kind::Integer, true},
       [](StateOverrides& o, const std::string&, double v) { o.max_relative_positions = whole(v); }},
      {{"max-position-embeddings", Kind::Integer, true, AnimationScale::Log},
       [](StateOverrides& o, const std::string&, double v) { o.max_position_embeddings = whole(v); }},
      {{"pos-att-type", Kind::Text}, [](StateOverrides& o, const std::string& t, double) { o.pos_att_type = t; }},
      {{"position-embedding-type", Kind::Text},
       [](StateOverrides& o, const std::string& t, double) { o.position_embedding_type = t; }},
      {{"scale-base", Kind::Number, true, AnimationScale::Log}, [](StateOverrides& o, const std::string&, double v) { o.scale_base = v; }},
      {{"r1", Kind::Number, true}, [](StateOverrides& o, const std::string&, double v) { o.r1 = v; }},
      {{"r2", Kind::Number, true}, [](StateOverrides& o, const std::string&, double v) { o.r2 = v; }},
      {{"sandwich-dim", Kind::Integer, true, AnimationScale::Linear, 2},
       [](StateOverrides& o, const std::string&, double v) { o.sandwich_dim = whole(v); }},
      {{"fire-c", Kind::Number, true, AnimationScale::Log}, [](StateOverrides& o, const std::string&, double v) { o.fire_c = v; }},
      {{"fire-threshold", Kind::Number, true, AnimationScale::Log},
       [](StateOverrides& o, const std::string&, double v) { o.fire_threshold = v; }},
      {{"cope-text", Kind::Text}, [](StateOverrides& o, const std::string& t, double) { o.cope_text = t; }},
      {{"cope-gates", Kind::Text}, [](StateOverrides& o, const std::string& t, double) { o.cope_gates = t; }},
      {{"cope-npos-max", Kind::Integer, true}, [](StateOverrides& o, const std::string&, double v) { o.cope_npos_max = whole(v); }},
      {{"training-length", Kind::Integer, true, AnimationScale::Log},
       [](StateOverrides& o, const std::string&, double v) { o.training_length = whole(v); }},
      {{"clamp-len", Kind::Integer, true}, [](StateOverrides& o, const std::string&, double v) { o.clamp_len = whole(v); }},
  };
  return table;
}

const Setter* find_setter(const std::string& key) {
  for (const auto& s : setters())
    if (s.info.key == key) return &s;
  return nullptr;
}

// "position = 200: must be 0 ... 127" → {"position", "200: must be 0 ... 127"}: core's and
// validate_state's messages start with the parameter's name (session spelling, '_').
std::pair<std::string, std::string> split_message(const std::string& what) {
  const std::size_t eq = what.find(" = ");
  if (eq == std::string::npos || eq == 0 || what.find(' ') < eq) return {"", what};
  std::string key = what.substr(0, eq);
  for (char& c : key)
    if (c == '_') c = '-';
  return {key, what.substr(eq + 3)};
}

}  // namespace

const pe::ParameterTable& lesson_parameters() {
  static const pe::ParameterTable table = [] {
    pe::ParameterTable t;
    for (const auto& s : setters()) t.parameters.push_back(s.info);
    for (const auto& v : all_views()) t.views.emplace_back(v.name);
    return t;
  }();
  return table;
}

pe::Lesson load_checked_lesson(const std::filesystem::path& path) {
  pe::Lesson lesson = pe::load_lesson(path);
  pe::check_lesson(lesson, lesson_parameters());
  return lesson;
}

void apply_slide_settings(AppState& state, const pe::Lesson& lesson, std::size_t index) {
  const pe::LessonSlide& slide = lesson.slides.at(index);
  StateOverrides o;
  for (const auto& s : slide.settings) {
    const Setter* setter = find_setter(s.key);
    if (!setter) throw pe::LessonError(lesson.file, s.line, s.key, "unknown key (check the lesson with check_lesson first)");
    if (setter->info.kind != Kind::Text && !s.number)
      throw pe::LessonError(lesson.file, s.line, s.key, "'" + s.text + "' is not a number");
    std::string text = s.text;
    if (s.key == "config" || s.key == "gguf") {
      const std::filesystem::path p(text);
      if (p.is_relative()) text = (std::filesystem::path(lesson.file).parent_path() / p).string();
    }
    if (s.key == "weights" && std::filesystem::path(text).is_relative()) {
      std::error_code ec;
      const std::filesystem::path beside = std::filesystem::path(lesson.file).parent_path() / text;
      if (std::filesystem::exists(beside, ec)) text = beside.string();  // else ORG/NAME, or a path from where pe-viz runs
    }
    try {
      setter->set(o, text, s.number.value_or(0.0));
    } catch (const std::exception&) {
      throw pe::LessonError(lesson.file, s.line, s.key, "'" + s.text + "' is out of range");
    }
  }
  AppState next = state;
  try {
    apply_overrides(next, o);
  } catch (const std::exception& e) {
    // Name the line of the setting the message is about; a consequence of several
    // settings (position past a new length) points at the slide's first line.
    const auto* invalid = dynamic_cast<const pe::InvalidArgument*>(&e);
    auto [key, message] = split_message(e.what());
    if (invalid) {
      key = invalid->parameter();
      for (char& c : key)
        if (c == '_') c = '-';
      message = "'" + invalid->value() + "': " + invalid->allowed();
    } else if (const std::size_t colon = message.find(": "); !key.empty() && colon != std::string::npos) {
      message = "'" + message.substr(0, colon) + "': " + message.substr(colon + 2);
    }
    if (dynamic_cast<const pe::ConfigError*>(&e)) {
      key = "config";
      message = e.what();
    }
    int line = slide.line;
    if (const pe::LessonSetting* s = slide.find(key)) line = s->line;
    throw pe::LessonError(lesson.file, line, key, message);
  }
  state = std::move(next);
}

AppState slide_state(const pe::Lesson& lesson, std::size_t index, const AppState& base) {
  AppState state = base;
  for (std::size_t k = 0; k <= index && k < lesson.slides.size(); ++k) apply_slide_settings(state, lesson, k);
  const pe::LessonSlide& slide = lesson.slides.at(index);
  if (slide.animation) {
    try {
      apply_tracks(state, slide.animation->tracks, 0.0);
    } catch (const pe::InvalidArgument& e) {
      throw pe::LessonError(lesson.file, slide.animation_line, e.parameter(), "'" + e.value() + "' at the start: " + e.allowed());
    }
  }
  return state;
}

void apply_tracks(AppState& state, const std::vector<pe::AnimationTrack>& tracks, double u) {
  StateOverrides o;
  for (const auto& t : tracks) {
    const Setter* setter = find_setter(t.key);
    if (!setter || !setter->info.animatable) throw pe::InvalidArgument(t.key, "animated", "an animatable numeric parameter");
    const double v = pe::track_value(t, u);
    try {
      setter->set(o, "", v);
    } catch (const std::exception&) {
      throw pe::InvalidArgument(t.key, pe::format_double(v), "a value in range");
    }
  }
  AppState next = state;
  try {
    apply_overrides(next, o);
  } catch (const pe::InvalidArgument& e) {
    std::string key = e.parameter();
    for (char& c : key)
      if (c == '_') c = '-';
    throw pe::InvalidArgument(key, e.value(), e.allowed());
  } catch (const std::exception& e) {
    const auto [key, message] = split_message(e.what());
    const std::size_t colon = message.find(": ");
    if (key.empty() || colon == std::string::npos) throw pe::InvalidArgument("animate", "", e.what());
    throw pe::InvalidArgument(key, message.substr(0, colon), message.substr(colon + 2));
  }
  state = std::move(next);
}

pe::AnimationTrack animate_option(const std::string& spec) {
  pe::AnimationTrack track = pe::parse_animate_option(spec);
  pe::resolve_track(track, lesson_parameters());
  return track;
}

}  // namespace app
