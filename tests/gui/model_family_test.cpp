// The GUI opens each model in its own views (issue 33): a preset, a config.json or a session
// of a model that does not rotate sets AppState::model_encoding and the numbers of its own
// view (GPT-2: learned, 1024 positions × n_embd 768; BLOOM: alibi, 16 heads and the model's
// slopes), the RoPE views say plainly that what they draw is an illustration, and the
// inspector and layers views name the family and what the layers share. Expected numbers
// are the published config.json values (tests/data/configs) and the slopes' formula.
#include <cmath>
#include <filesystem>
#include <fstream>

#include "export/state_options.hpp"
#include "cli/url_fragment.hpp"
#include "export/view_data.hpp"
#include "state/session_file.hpp"
#include "test_support.hpp"
#include "views/model_family.hpp"
#include "views/view.hpp"

namespace {

using namespace pe_test;
using F = pe::PositionEncodingFamily;

const bool kRegistered = register_session_environment();

std::string data_config(const std::string& model) {
  return (std::filesystem::path(PE_SOURCE_DIR) / "tests" / "data" / "configs" / (model + ".json")).string();
}

app::AppState opened(const app::StateOverrides& o) {
  app::AppState s = app::default_state();
  app::apply_overrides(s, o);
  EXPECT_EQ(app::validate_state(s), "");
  return s;
}

app::AppState with_preset(const std::string& key) {
  app::StateOverrides o;
  o.preset = key;
  return opened(o);
}

std::vector<std::vector<std::string>> csv_of(const std::string& view, const app::AppState& s) {
  app::Derived d;
  app::update_derived(s, d);
  return parse_csv(app::view_csv(view, s, d));
}

TEST(ModelFamily, Gpt2OpensInTheLearnedViewWithItsTableShape) {
  const app::AppState s = with_preset("gpt2");
  EXPECT_EQ(s.model_encoding.family, F::LearnedAbsolute);
  EXPECT_EQ(s.view, "learned");
  EXPECT_EQ(s.learned_max_len, 1024);  // n_positions
  EXPECT_EQ(s.rope.head_dim, 768);     // n_embd: the table's width is `dim` in the absolute views
  EXPECT_EQ(s.length, 1024);
  EXPECT_EQ(s.heads, 12);
  // The learned view's CSV is that table: 768 dimensions per row.
  const auto rows = csv_of("learned", s);
  ASSERT_GE(rows.size(), 2u);
  EXPECT_EQ(rows[0].size(), 769u);  // position + dim0 … dim767
  // A config.json path opens it the same way, and --view still wins.
  app::StateOverrides o;
  o.config = data_config("gpt2");
  EXPECT_EQ(opened(o).view, "learned");
  o.view = "rope-cos";
  EXPECT_EQ(opened(o).view, "rope-cos");
}

TEST(ModelFamily, Bloom560mOpensInTheAlibiViewWithItsOwnSlopes) {
  const app::AppState s = with_preset("bloom-560m");
  EXPECT_EQ(s.model_encoding.family, F::Alibi);
  EXPECT_EQ(s.view, "alibi");
  EXPECT_EQ(s.heads, 16);
  EXPECT_EQ(s.rope.head_dim, 64);  // 1024 / 16
  const auto rows = csv_of("alibi", s);
  ASSERT_EQ(rows.size(), 17u);  // header + 16 heads
  for (std::size_t h = 1; h <= 16; ++h)
    EXPECT_NEAR(std::stod(rows[h][1]) / std::pow(2.0, -8.0 * double(h) / 16.0), 1.0, 1e-6) << "head " << h;
  // MPT-7B: 32 heads, 2048 positions (max_seq_len).
  const app::AppState mpt = with_preset("mpt-7b");
  EXPECT_EQ(mpt.view, "alibi");
  EXPECT_EQ(mpt.heads, 32);
  EXPECT_EQ(mpt.length, 2048);
}

TEST(ModelFamily, EveryNonRotaryPresetOpensSomewhereItCanBeDrawn) {
  for (const auto& p : pe::list_presets(pe::PresetKinds::All)) {
    if (p.family == F::Rope) continue;
    SCOPED_TRACE(p.key);
    const app::AppState s = with_preset(p.key);
    EXPECT_EQ(s.model_encoding.family, p.family);
    EXPECT_NE(app::find_view(s.view), nullptr);
    EXPECT_EQ(s.view, app::family_view(s));
    // The RoPE it keeps is the teaching one (θ 10000), at the model's width.
    EXPECT_EQ(s.rope.theta, 10000.0);
    EXPECT_EQ(s.rope.scaling.type, pe::RopeType::Default);
  }
  // Whisper: the decoder's learned table (448) in the learned view; T5 has no position limit.
  EXPECT_EQ(with_preset("whisper-small").learned_max_len, 448);
  EXPECT_EQ(with_preset("t5-base").length, app::kUnlimitedFamilyLength);
  EXPECT_EQ(with_preset("t5-base").heads, 12);
}

TEST(ModelFamily, RopeViewsSayTheModelDoesNotRotate) {
  const app::AppState gpt2 = with_preset("gpt2");
  const app::ViewInfo* rope_cos = app::find_view("rope-cos");
  const app::ViewInfo* learned = app::find_view("learned");
  ASSERT_TRUE(rope_cos && learned);
  const std::string banner = app::not_rotary_banner(gpt2, *rope_cos);
  EXPECT_NE(banner.find("does not rotate"), std::string::npos) << banner;
  EXPECT_NE(banner.find("learned-absolute"), std::string::npos) << banner;
  EXPECT_NE(banner.find("illustration"), std::string::npos) << banner;
  EXPECT_NE(banner.find("learned."), std::string::npos) << banner;  // names the model's own view
  EXPECT_EQ(app::not_rotary_banner(gpt2, *learned), "");            // the learned view is GPT-2's own
  EXPECT_EQ(app::not_rotary_banner(with_preset("llama-3.1-8b"), *rope_cos), "");
  // Every view that draws the model's RoPE is marked; the absolute and model views are not.
  for (const char* v : {"rope-cos", "rope-sin", "rope-spectrum", "clock-hands", "relative-score", "scaling", "extrapolation"})
    EXPECT_TRUE(app::find_view(v)->model_rope) << v;
  for (const char* v : {"sinusoidal", "learned", "alibi", "inspector", "layers"}) EXPECT_FALSE(app::find_view(v)->model_rope) << v;
}

TEST(ModelFamily, TheInspectorNamesTheFamilyAndItsKeys) {
  const auto rows = csv_of("inspector", with_preset("t5-base"));
  auto value = [&](const std::string& key) {
    for (const auto& r : rows)
      if (r.size() >= 4 && r[0] == "encoding" && r[2] == key) return r[3];
    return std::string("(missing)");
  };
  EXPECT_EQ(value("position_encoding"), "t5-relative-bias");
  EXPECT_EQ(value("encoder_position_encoding"), "t5-relative-bias");
  EXPECT_EQ(value("relative_attention_num_buckets"), "32");
  EXPECT_EQ(value("relative_attention_max_distance"), "128");
  EXPECT_NE(value("shared").find("one bias table per stack"), std::string::npos);
  for (const auto& r : rows) EXPECT_NE(r[0], "framework") << "no RoPE framework comparison for T5";
  // A RoPE model's inspector says so too.
  bool rope = false;
  for (const auto& r : csv_of("inspector", with_preset("llama-3.1-8b")))
    rope = rope || (r.size() >= 4 && r[0] == "encoding" && r[2] == "position_encoding" && r[3] == "rope");
  EXPECT_TRUE(rope);
}

TEST(ModelFamily, TheLayersViewSaysWhatEachLayerHolds) {
  // T5-base: 12 encoder + 12 decoder layers; block 0 of each stack owns the bias table.
  const auto t5 = csv_of("layers", with_preset("t5-base"));
  ASSERT_EQ(t5.size(), 25u);
  EXPECT_EQ(t5[0], (std::vector<std::string>{"stack", "layer", "family", "positions"}));
  EXPECT_EQ(t5[1][0], "encoder");
  EXPECT_EQ(t5[1][3], "owns position parameters");
  EXPECT_EQ(t5[2][3], "uses its stack's shared table");
  EXPECT_EQ(t5[13][0], "decoder");
  EXPECT_EQ(t5[13][3], "owns position parameters");
  // GPT-2: the table before layer 0, nothing in the layers.
  const auto gpt2 = csv_of("layers", with_preset("gpt2"));
  ASSERT_EQ(gpt2.size(), 14u);  // header, input, 12 layers
  EXPECT_EQ(gpt2[1][1], "input");
  EXPECT_EQ(gpt2[1][3], "learned table");
  EXPECT_EQ(gpt2[2][3], "no position parameters");
}

TEST(ModelFamily, SessionsKeepTheFamily) {
  const app::AppState s = with_preset("bloom-560m");
  std::vector<std::string> warnings;
  const app::AppState back = app::session_from_json(app::session_to_json(s), app::default_state(), warnings);
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(back.model_encoding.family, F::Alibi);
  EXPECT_EQ(back.model_encoding.alibi_slopes, s.model_encoding.alibi_slopes);
  EXPECT_EQ(back.model_encoding.num_attention_heads, 16);
  EXPECT_EQ(back.model_encoding.alibi_rule, "build_alibi_tensor");
  // A hand-written session naming only the preset gets the family from it.
  const app::AppState named = app::session_from_json(R"({"pe_viz_session": 1, "preset": "gpt2"})", app::default_state(), warnings);
  EXPECT_EQ(named.model_encoding.family, F::LearnedAbsolute);
  // A bad family is refused naming the key.
  try {
    (void)app::session_from_json(R"({"pe_viz_session": 1, "model_encoding": {"position_encoding": "wobbly"}})",
                                 app::default_state(), warnings);
    FAIL();
  } catch (const app::SessionError& e) {
    EXPECT_NE(std::string(e.what()).find("model_encoding.position_encoding"), std::string::npos) << e.what();
  }
  // compare's B side draws RoPE: a preset that does not rotate is refused there, by name.
  try {
    (void)app::session_from_json(R"({"pe_viz_session": 1, "compare_b_preset": "t5-base"})", app::default_state(), warnings);
    FAIL();
  } catch (const app::SessionError& e) {
    EXPECT_NE(std::string(e.what()).find("compare_b_preset"), std::string::npos) << e.what();
  }
}

TEST(ModelFamily, ALinkOpensTheModelAgain) {
  const app::AppState s = with_preset("gpt2");
  bool exact = false;
  const std::string fragment = app::url_fragment_for(s, &exact);
  EXPECT_TRUE(exact) << fragment;
  app::AppState opened = app::default_state();
  EXPECT_TRUE(app::apply_url_fragment(opened, fragment).empty()) << fragment;
  EXPECT_EQ(opened.model_encoding.family, F::LearnedAbsolute);
  EXPECT_EQ(opened.view, "learned");
  EXPECT_EQ(opened.rope.head_dim, 768);
  EXPECT_EQ(opened.learned_max_len, 1024);
}

TEST(ModelFamily, ARotaryModelAfterwardsIsRopeAgain) {
  app::AppState s = with_preset("gpt2");
  app::apply_preset(s, "llama-3.1-8b");
  EXPECT_EQ(s.model_encoding.family, F::Rope);
  EXPECT_EQ(s.rope.theta, 500000.0);
  EXPECT_EQ(s.rope.head_dim, 128);
}

// The relative views draw the model's own parameters: a config's T5 buckets, DeBERTa's
// buckets, span and terms, BERT's relative-key type and table size become the views'.
TEST(ModelFamily, ARelativeModelsParametersBecomeTheViewsParameters) {
  pe_test::TempDir dir;
  const auto write = [&](const std::string& name, const std::string& json) {
    const std::string path = (dir.path() / name).string();
    std::ofstream(path) << json;
    app::StateOverrides o;
    o.config = path;
    return opened(o);
  };
  const app::AppState t5 = write("t5.json", R"({"model_type": "t5", "d_model": 64, "d_kv": 16, "num_heads": 4, "num_layers": 2,
    "relative_attention_num_buckets": 64, "relative_attention_max_distance": 256})");
  EXPECT_EQ(t5.view, "t5-bias");
  EXPECT_EQ(t5.num_buckets, 64);
  EXPECT_EQ(t5.max_distance, 256);
  EXPECT_EQ(t5.heads, 4);
  const app::AppState deberta = write("deberta.json", R"({"model_type": "deberta-v2", "hidden_size": 64, "num_attention_heads": 4,
    "num_hidden_layers": 2, "max_position_embeddings": 384, "relative_attention": true, "position_buckets": 128,
    "max_relative_positions": -1, "pos_att_type": "p2c|c2p"})");
  EXPECT_EQ(deberta.view, "deberta");
  EXPECT_EQ(deberta.position_buckets, 128);
  EXPECT_EQ(deberta.max_position_embeddings, 384);
  EXPECT_EQ(deberta.max_relative_positions, 384);  // −1: max_position_embeddings
  EXPECT_EQ(deberta.pos_att_type, "p2c|c2p");
  const app::AppState bert = write("bert.json", R"({"model_type": "bert", "hidden_size": 64, "num_attention_heads": 4,
    "num_hidden_layers": 2, "max_position_embeddings": 256, "position_embedding_type": "relative_key_query"})");
  EXPECT_EQ(bert.view, "relative-key");
  EXPECT_EQ(bert.position_embedding_type, "relative_key_query");
  EXPECT_EQ(bert.max_position_embeddings, 256);
  // The published t5-base (32 buckets, 128) and DeBERTa-v3-base (256, −1 → 512) as read.
  app::StateOverrides o;
  o.config = data_config("deberta-v3-base");
  const app::AppState v3 = opened(o);
  EXPECT_EQ(v3.position_buckets, 256);
  EXPECT_EQ(v3.max_relative_positions, 512);
}

}  // namespace
