// The inspector and layers views (issue 15): their numbers against Hugging Face's
// documented defaults (Gemma3TextConfig, Llama4TextConfig), a picked layer becoming the
// current config as one undoable step, seeded config mistakes and a GGUF's conversion
// named in the inspector's CSV.
#include <fstream>

#include "../unit/gguf_test_writer.hpp"
#include "export/view_data.hpp"
#include "state/undo_history.hpp"
#include "test_support.hpp"
#include "views/layer_pick.hpp"
#include "views/view.hpp"

namespace {

using namespace pe_test;

const bool kRegistered = register_session_environment();

std::vector<std::vector<std::string>> csv_of(const std::string& view, const app::AppState& s) {
  app::Derived d;
  app::update_derived(s, d);
  return parse_csv(app::view_csv(view, s, d));
}

app::AppState with_preset(const std::string& key) {
  app::AppState s = app::default_state();
  app::apply_preset(s, key);
  return s;
}

TEST(LayersView, Gemma3HasAGlobalLayerEverySixthWithItsOwnBase) {
  // Gemma3TextConfig: layer_types[i] = "sliding_attention" if (i + 1) % 6 else "full_attention";
  // rope_theta 1e6 (global, with rope_scaling), rope_local_base_freq 1e4 (sliding), window 1024.
  const auto rows = csv_of("layers", with_preset("gemma-3-27b"));
  ASSERT_EQ(rows.size(), 63u);  // header + 62 layers
  const auto& h = rows[0];
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto& r = rows[i];
    const long long layer = std::stoll(r[column(h, "layer")]);
    EXPECT_EQ(layer, (long long)i - 1);
    const bool global = (layer + 1) % 6 == 0;
    SCOPED_TRACE("layer " + std::to_string(layer));
    EXPECT_EQ(r[column(h, "attention")], global ? "full_attention" : "sliding_attention");
    EXPECT_EQ(r[column(h, "rotary")], "true");
    EXPECT_EQ(std::stod(r[column(h, "theta")]), global ? 1e6 : 1e4);
    EXPECT_EQ(r[column(h, "scaling")], global ? "linear" : "default");
    EXPECT_EQ(std::stoll(r[column(h, "window")]), global ? 0 : 1024);
    // The preset's own config is the global layers' one.
    EXPECT_EQ(r[column(h, "current")], global ? "true" : "false");
  }
}

TEST(LayersView, Llama4ScoutSkipsRopeEveryFourthLayer) {
  // Llama4TextConfig: no_rope_layers[i] = int((i + 1) % 4 != 0): layers 3, 7, …, 47 have no RoPE.
  const auto rows = csv_of("layers", with_preset("llama-4-scout"));
  ASSERT_EQ(rows.size(), 49u);
  const auto& h = rows[0];
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const long long layer = (long long)i - 1;
    EXPECT_EQ(rows[i][column(h, "rotary")], (layer + 1) % 4 == 0 ? "false" : "true") << "layer " << layer;
  }
}

TEST(LayersView, PickingALayerMakesItCurrentAsOneUndoableStep) {
  app::AppState s = with_preset("gemma-3-27b");
  app::UndoHistory undo;
  undo.observe(s, true);
  ASSERT_EQ(s.rope.theta, 1e6);
  ASSERT_TRUE(app::pick_layer(s, 0));  // a sliding layer
  EXPECT_EQ(s.rope.theta, 1e4);
  EXPECT_EQ(s.rope.scaling.type, pe::RopeType::Default);
  EXPECT_EQ(s.model_source, "preset:gemma-3-27b");  // still the model's layer plan
  undo.observe(s, true);
  ASSERT_TRUE(undo.undo(s));
  EXPECT_EQ(s.rope.theta, 1e6);
  EXPECT_EQ(s.rope.scaling.type, pe::RopeType::Linear);
  EXPECT_EQ(s.rope.scaling.factor, 8.0);
  // ← / → walk to the next layer whose RoPE differs.
  const app::ViewInfo* layers = app::find_view("layers");
  ASSERT_TRUE(layers && layers->step);
  layers->step(s, +1);  // from global layer 5 to sliding layer 6
  EXPECT_EQ(s.rope.theta, 1e4);
  layers->step(s, +1);  // then to global layer 11
  EXPECT_EQ(s.rope.theta, 1e6);
  // A NoPE layer or a layer outside the plan changes nothing.
  app::AppState scout = with_preset("llama-4-scout");
  const double theta = scout.rope.theta;
  EXPECT_FALSE(app::pick_layer(scout, 3));
  EXPECT_FALSE(app::pick_layer(scout, 48));
  EXPECT_FALSE(app::pick_layer(scout, -1));
  EXPECT_EQ(scout.rope.theta, theta);
}

bool has_row(const std::vector<std::vector<std::string>>& rows, const std::vector<std::string>& prefix, const std::string& text = "") {
  for (const auto& r : rows) {
    if (r.size() < prefix.size()) continue;
    if (!std::equal(prefix.begin(), prefix.end(), r.begin())) continue;
    std::string all;
    for (const auto& f : r) all += f + "|";
    if (all.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(InspectorView, SeededMistakesAreNamedWithTheIntendedKey) {
  TempDir dir;
  const fs::path config = dir / "config.json";
  std::ofstream(config) << R"({"model_type": "llama", "head_dim": 64, "max_position_embeddings": 16384, "rope_theta": 10000,
      "rope_scaling": {"type": "yarn", "factor": 4.0, "attn_factor": 0.8, "original_max_position_embeddings": 4096}})";
  app::AppState s = app::default_state();
  app::load_config_file(s, config.string());
  EXPECT_EQ(s.model_source, config.string());
  const auto rows = csv_of("inspector", s);
  EXPECT_TRUE(has_row(rows, {"diagnostic", "warning", "rope_scaling.attn_factor"}, "attention_factor"));
  EXPECT_TRUE(has_row(rows, {"config", "", "theta"}, "10000"));
  EXPECT_TRUE(has_row(rows, {"framework", "vllm", "method"}));
  // Editing the configuration keeps the source: the inspector still reads the file.
  s.rope.theta = 5e5;
  EXPECT_TRUE(has_row(csv_of("inspector", s), {"diagnostic", "warning", "rope_scaling.attn_factor"}));
}

TEST(InspectorView, AGgufBesideItsConfigShowsTheConversion) {
  // Llama 3.1: a half-split checkpoint, llama.cpp's NORM (interleaved) rope mode, so the
  // converter permuted the q/k rows (convert_hf_to_gguf.py LlamaModel.permute).
  TempDir dir;
  const Bytes gguf = llama31_builder(2).bytes();
  std::ofstream(dir / "model.gguf", std::ios::binary).write(reinterpret_cast<const char*>(gguf.data()), std::streamsize(gguf.size()));
  std::ofstream(dir / "config.json") << R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama",
      "hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 131072, "rope_theta": 500000.0,
      "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                       "original_max_position_embeddings": 8192}})";
  app::AppState s = app::default_state();
  app::load_config_file(s, (dir / "model.gguf").string());
  const auto rows = csv_of("inspector", s);
  EXPECT_TRUE(has_row(rows, {"conversion", "", "checkpoint_convention", "half-split"}));
  EXPECT_TRUE(has_row(rows, {"conversion", "", "gguf_convention", "interleaved"}));
  EXPECT_TRUE(has_row(rows, {"conversion", "", "qk_permuted", "true"}));
  EXPECT_TRUE(has_row(rows, {"conversion", "", "consistent", "true"}));
  EXPECT_TRUE(has_row(rows, {"gguf", "llama", "llama.rope.freq_base"}, "500000"));
}

TEST(InspectorView, AnUnreadableSourceDescribesTheStateAndSaysWhy) {
  app::AppState s = app::default_state();
  s.model_source = "/nonexistent/config.json";
  s.rope.theta = 12345.0;
  app::Derived d;
  app::update_derived(s, d);
  const std::string csv = app::view_csv("inspector", s, d);
  EXPECT_NE(csv.find("not readable"), std::string::npos) << csv;
  EXPECT_TRUE(has_row(parse_csv(csv), {"config", "", "theta", "12345"}));
}

}  // namespace
