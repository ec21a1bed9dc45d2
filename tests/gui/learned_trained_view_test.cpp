// The learned view with a model's weights (issue 33), in the offscreen GL session, on a tiny
// GPT-2 checkpoint written here: the trained table, the cosine similarity of positions, the
// principal components and the spectra are drawn with data that varies, in both themes at
// 1× and 2× with no text cut; the CSV is the table read; without weights the view keeps its
// random table and says so; a model without a learned table says what it has; a dropped
// checkpoint opens in the view its family needs; the t5-bias view's accessor gives the
// trained stacks.
#include <cmath>
#include <fstream>

#include "../unit/weights_test_writer.hpp"
#include "clipped_text.hpp"
#include "export/view_data.hpp"
#include "ui/formula_strip.hpp"
#include "plot/plot.hpp"
#include "state/weights_usage.hpp"
#include "test_support.hpp"
#include "ui/file_actions.hpp"
#include "ui/main_frame.hpp"
#include "views/view.hpp"

namespace {

using namespace pe_test;

const bool kRegistered = register_session_environment();

constexpr long long kP = 48, kD = 12;

// Every glyph ImGui drew, in draw order (spaces are no glyphs), and whether `text` (its
// spaces left out) is among them.
bool draw_data_has_text(const ImDrawData& data, std::string text) {
  const auto uvs = glyph_uvs();
  const ImTextureID font = ImGui::GetIO().Fonts->TexID;
  std::string drawn;
  for (int l = 0; l < data.CmdListsCount; ++l) {
    const ImDrawList& list = *data.CmdLists[l];
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      if (cmd.UserCallback || cmd.TextureId != font) continue;
      for (unsigned k = 0; k + 5 < cmd.ElemCount; k += 6) {
        const ImDrawVert& tl = list.VtxBuffer[int(list.IdxBuffer[int(cmd.IdxOffset + k)] + cmd.VtxOffset)];
        if (const auto g = uvs.find({tl.uv.x, tl.uv.y}); g != uvs.end()) append_utf8(drawn, g->second);
      }
    }
  }
  std::erase(text, ' ');
  return drawn.find(text) != std::string::npos;
}

// A smooth table: dims 2i, 2i+1 a slow sine and cosine of p, plus a ramp, so every panel has
// structure. Values are floats by construction (written as F32).
double entry(long long p, long long j) {
  const double w = std::pow(50.0, -double(j / 2) / double(kD / 2)) * 0.5;
  return static_cast<float>((j % 2 ? std::cos(w * double(p)) : std::sin(w * double(p))) + 0.01 * double(p));
}

class LearnedTrainedViewTest : public SessionTest {
 protected:
  TempDir dir;
  std::string gpt2() {
    const fs::path d = dir / "gpt2";
    fs::create_directories(d);
    std::vector<double> v;
    for (long long p = 0; p < kP; ++p)
      for (long long j = 0; j < kD; ++j) v.push_back(entry(p, j));
    SafetensorsWriter w;
    w.values("wpe.weight", "F32", {kP, kD}, v);
    write_bytes(d / "model.safetensors", w.bytes());
    std::ofstream(d / "config.json") << R"({"model_type": "gpt2", "n_positions": 48, "n_embd": 12, "n_head": 2, "n_layer": 1})";
    return d.string();
  }
  std::string t5(bool with_decoder) {
    const fs::path d = dir / (with_decoder ? "t5" : "t5-encoder");
    fs::create_directories(d);
    SafetensorsWriter w;
    std::vector<double> v;
    for (int b = 0; b < 8; ++b)
      for (int h = 0; h < 2; ++h) v.push_back(-0.25 * b * (h + 1));
    w.values("encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", "F32", {8, 2}, v);
    if (with_decoder) w.values("decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", "F32", {8, 2}, v);
    write_bytes(d / "model.safetensors", w.bytes());
    std::ofstream(d / "config.json") << R"({"model_type": "t5", "d_model": 8, "d_kv": 4, "num_heads": 2, "num_layers": 3,
      "relative_attention_num_buckets": 8})";
    return d.string();
  }
};

app::AppState learned_with(const std::string& weights) {
  app::AppState s = known_state("learned");
  s.weights = weights;
  return s;
}

TEST_F(LearnedTrainedViewTest, FourPanelsWithDataInBothThemesAtScale1And2) {
  const std::string source = gpt2();
  ASSERT_TRUE(app::weights_status(source, true).result->ok());
  for (const float scale : {1.0f, 2.0f})
    for (const bool dark : {true, false}) {
      session().window().set_size(scale > 1.0f ? 1920 : kWindowWidth, scale > 1.0f ? 1080 : kWindowHeight);
      SCOPED_TRACE(std::string(dark ? "dark " : "light ") + std::to_string(int(scale)) + "×");
      app::AppState s = learned_with(source);
      s.ui_scale = scale;
      s.dark_theme = dark;
      session().state() = s;
      render::drain_gl_errors();
      plot::set_record_drawn_plots(true);
      for (int f = 0; f < 4; ++f) session().frame(0.0);
      const auto plots = plot::take_drawn_plots();
      plot::set_record_drawn_plots(false);
      EXPECT_TRUE(clipped_text(*ImGui::GetDrawData()).empty()) << "text cut off";
      EXPECT_TRUE(render::drain_gl_errors().empty());
      ASSERT_GE(plots.size(), 4u);
      std::vector<std::string> titles;
      for (std::size_t i = plots.size() - 4; i < plots.size(); ++i) {
        titles.push_back(plots[i].title);
        EXPECT_TRUE(plots[i].varied) << plots[i].title;
      }
      EXPECT_NE(titles[0].find("wpe.weight"), std::string::npos) << titles[0];
      EXPECT_NE(titles[1].find("Cosine similarity"), std::string::npos) << titles[1];
      EXPECT_NE(titles[2].find("principal components"), std::string::npos) << titles[2];
      EXPECT_NE(titles[3].find("Frequency content"), std::string::npos) << titles[3];
      EXPECT_LT(app::last_view_overflow(), 1.0f) << "runs past the bottom of its area";
    }
  session().window().set_size(kWindowWidth, kWindowHeight);
  for (int f = 0; f < 2; ++f) session().frame(0.0);
}

TEST_F(LearnedTrainedViewTest, CsvIsTheTableReadAndTheFormulaNamesIt) {
  const app::AppState s = learned_with(gpt2());
  app::Derived d;
  app::update_derived(s, d);
  const std::string csv = app::view_csv("learned", s, d);
  EXPECT_NE(csv.find("wpe.weight"), std::string::npos);
  const auto rows = parse_csv(csv);
  ASSERT_EQ(rows.size(), std::size_t(1 + kP));  // header + every position
  ASSERT_EQ(rows[0].size(), std::size_t(1 + kD));
  for (long long p = 0; p < kP; ++p)
    for (long long j = 0; j < kD; ++j) EXPECT_NEAR(std::stod(rows[1 + p][1 + j]), entry(p, j), 1e-6 * (1 + std::abs(entry(p, j))));
  const auto formula = app::view_formula("learned", s, d);
  ASSERT_EQ(formula.size(), 2u);
  EXPECT_NE(formula[1].find("wpe.weight, P × d = 48 × 12"), std::string::npos) << formula[1];
}

TEST_F(LearnedTrainedViewTest, WithoutWeightsTheRandomTableSaysSo) {
  session().state() = known_state("learned");
  plot::set_record_drawn_plots(true);
  plot::take_drawn_plots();
  for (int f = 0; f < 3; ++f) session().frame(0.0);
  const auto plots = plot::take_drawn_plots();
  plot::set_record_drawn_plots(false);
  ASSERT_FALSE(plots.empty());
  EXPECT_NE(plots.back().title.find("random init"), std::string::npos) << plots.back().title;
  EXPECT_TRUE(draw_data_has_text(*ImGui::GetDrawData(), "No weights loaded"));
}

TEST_F(LearnedTrainedViewTest, AModelWithoutALearnedTableSaysWhatItHas) {
  const std::string source = t5(true);
  ASSERT_TRUE(app::weights_status(source, true).result->ok());
  session().state() = learned_with(source);
  plot::set_record_drawn_plots(true);
  plot::take_drawn_plots();
  for (int f = 0; f < 3; ++f) session().frame(0.0);
  const auto plots = plot::take_drawn_plots();
  plot::set_record_drawn_plots(false);
  ASSERT_FALSE(plots.empty());
  EXPECT_NE(plots.back().title.find("random init"), std::string::npos);
  EXPECT_TRUE(draw_data_has_text(*ImGui::GetDrawData(), "no learned absolute position table"));
  // The frequency-usage view draws no plot of a model that does not rotate, and says why.
  session().state().view = "frequency-usage";
  plot::set_record_drawn_plots(true);
  for (int f = 0; f < 3; ++f) session().frame(0.0);
  EXPECT_TRUE(plot::take_drawn_plots().empty());
  plot::set_record_drawn_plots(false);
  EXPECT_TRUE(draw_data_has_text(*ImGui::GetDrawData(), "does not rotate"));
}

TEST_F(LearnedTrainedViewTest, LoadedT5BiasPerStack) {
  const std::string both = t5(true), encoder = t5(false);
  app::AppState s = known_state("learned");
  EXPECT_EQ(app::loaded_t5_bias(s, false), nullptr);  // nothing loaded
  s.weights = both;
  ASSERT_TRUE(app::weights_status(both, true).result->ok());
  const pe::T5StackBias* enc = app::loaded_t5_bias(s, false);
  const pe::T5StackTables* dec = app::loaded_t5_stack(s, true);
  ASSERT_NE(enc, nullptr);
  ASSERT_NE(dec, nullptr);
  EXPECT_EQ(enc->layers, 3);
  EXPECT_EQ(enc->tables[0].bias(4, 1), -0.25 * 4 * 2);
  EXPECT_TRUE(dec->params.causal);
  EXPECT_EQ(dec->params.num_buckets, 8);
  s.weights = encoder;
  ASSERT_TRUE(app::weights_status(encoder, true).result->ok());
  EXPECT_NE(app::loaded_t5_bias(s, false), nullptr);
  EXPECT_EQ(app::loaded_t5_bias(s, true), nullptr);  // a T5EncoderModel has no decoder stack
}

TEST_F(LearnedTrainedViewTest, ADroppedCheckpointOpensInItsFamilysView) {
  app::AppState s = known_state("rope-cos");
  app::StatusLine status;
  const std::string source = gpt2();
  app::load_dropped_files(s, {source}, status, 1.0);
  EXPECT_EQ(s.weights, source);
  EXPECT_EQ(s.view, "learned");
  EXPECT_FALSE(status.error) << status.text;
}

// A dropped T5 checkpoint opens in t5-bias with the config's buckets and heads, and the view
// draws (and its CSV writes) the trained encoder table, not the illustrative one; causal
// switches to the decoder's table.
TEST_F(LearnedTrainedViewTest, ADroppedT5CheckpointDrawsItsTrainedBiasTable) {
  app::AppState s = known_state("rope-cos");
  app::StatusLine status;
  const std::string source = t5(true);
  app::load_dropped_files(s, {source}, status, 1.0);
  EXPECT_FALSE(status.error) << status.text;
  EXPECT_EQ(s.view, "t5-bias");
  EXPECT_EQ(s.num_buckets, 8);
  EXPECT_EQ(s.heads, 2);
  ASSERT_TRUE(app::weights_status(source, true).result->ok());
  s.length = 8;
  s.head = 2;
  app::Derived d;
  app::update_derived(s, d);
  const std::string csv = app::view_csv("t5-bias", s, d);
  EXPECT_EQ(csv.find("ILLUSTRATIVE"), std::string::npos) << csv.substr(0, 200);
  EXPECT_NE(csv.find("trained relative_attention_bias"), std::string::npos);
  // Bidirectional, 8 buckets: max_exact 2; key 1 after the query is bucket 4 + 1, 1 before is 1.
  bool after = false, before = false;
  for (const auto& row : parse_csv(csv)) {
    if (row.size() < 5 || row[0] == "relative_position") continue;
    const long long bucket = std::stoll(row[1]);
    EXPECT_DOUBLE_EQ(std::stod(row[4]), -0.25 * double(bucket) * 2.0) << row[0];  // the written table, head 2
    if (row[0] == "1") after = bucket == 5;
    if (row[0] == "-1") before = bucket == 1;
  }
  EXPECT_TRUE(after);
  EXPECT_TRUE(before);
  s.causal = true;  // the decoder's stack (the same numbers here), still trained
  EXPECT_EQ(app::view_csv("t5-bias", s, d).find("ILLUSTRATIVE"), std::string::npos);
  s.num_buckets = 16;  // parameters that are not the model's: the illustrative table, said so
  EXPECT_NE(app::view_csv("t5-bias", s, d).find("ILLUSTRATIVE"), std::string::npos);
}

}  // namespace
