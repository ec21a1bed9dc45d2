#pragma once
// Which views show the loaded model's own positions (issue 33): GPT-2 in `learned`, BLOOM in
// `alibi`, a T5 in `t5-bias`, BERT with relative keys in `relative-key`; and the line a RoPE
// view shows above its plots when the loaded model does not rotate (its RoPE is then an
// illustration at the model's width, never the model).
#include <string>

#include "pe/models/position_encoding.hpp"
#include "state/app_state.hpp"

namespace app {

struct ViewInfo;

// The view meant for a family ("learned", "sinusoidal", "alibi", "t5-bias", "relative-key", …).
const char* family_view_name(pe::PositionEncodingFamily family);
// The loaded model's view: family_view_name when that view is registered, else "inspector"
// (it names the family and its parameters for every family).
std::string family_view(const AppState& state);
// After a model was loaded interactively: a model that does not rotate moves the view to its
// own unless the view already is a Model view (inspector, layers) or the family's.
void open_family_view(AppState& state);

// The loaded model's short name: its title up to " (" ("GPT-2 124M"), else its name.
std::string model_label(const AppState& state);

// "GPT-2 124M does not rotate: learned-absolute …" for a RoPE view
// (ViewInfo::model_rope) while the model does not rotate; "" otherwise.
std::string not_rotary_banner(const AppState& state, const ViewInfo& view);
// Draws the banner (a framed warning line, wrapped to `width`) and a button to the family's
// view when `buttons`; returns the height used. Nothing drawn, 0, when the banner is "".
float draw_not_rotary_banner(AppState& state, const ViewInfo& view, float width, bool buttons);

}  // namespace app
