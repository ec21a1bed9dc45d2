// The parameter panel's "Model" field (issue 15): ORG/NAME typed into the real frame loop
// opens that model's config.json from a Hugging Face hub cache (a fake one in a temporary
// HF_HUB_CACHE, laid out as huggingface_hub writes it); a name not in the cache leaves the
// configuration as it was and says which cached name is closest.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cfloat>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "pe/models/hf_cache.hpp"
#include "test_support.hpp"
#include "state/weights_usage.hpp"
#include "test_hub_server.hpp"
#include "ui/file_actions.hpp"

namespace {

namespace fs = std::filesystem;
using namespace pe_test;

const bool kRegistered = register_session_environment();

class ModelField : public SessionTest {
 protected:
  void SetUp() override {
    SessionTest::SetUp();
    cache_ = fs::temp_directory_path() / ("pe-viz-hf-cache-" + std::to_string(::getpid()));
    const fs::path repo = cache_ / "models--meta-llama--Llama-3.1-8B";
    fs::create_directories(repo / "refs");
    fs::create_directories(repo / "snapshots" / "0e9e39f249a16976918f6564b8830bc894c89659");
    std::ofstream(repo / "refs" / "main") << "0e9e39f249a16976918f6564b8830bc894c89659";
    // Llama 3.1 8B's positional keys as published (its config.json).
    std::ofstream(repo / "snapshots" / "0e9e39f249a16976918f6564b8830bc894c89659" / "config.json")
        << R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 131072,
              "rope_theta": 500000.0, "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
              "original_max_position_embeddings": 8192, "rope_type": "llama3"}})";
    fs::create_directories(cache_ / "models--Qwen--Qwen2.5-7B");
    ::setenv("HF_HUB_CACHE", cache_.c_str(), 1);
    session().state().show_panel = true;
    session().window().set_input_hook([this](ImGuiIO& io) {
      io.MousePos = mouse_;
      io.MouseDown[0] = down_;
      io.MouseWheel = wheel_;
      io.KeysDown[GLFW_KEY_ENTER] = enter_;
      for (char c : typed_) io.AddInputCharacter(static_cast<unsigned>(c));
      typed_.clear();
    });
    frame();
  }
  void TearDown() override {
    session().window().set_input_hook(nullptr);
    ::unsetenv("HF_HUB_CACHE");
    fs::remove_all(cache_);
  }
  void frame() {
    app::FrameOptions options;
    options.status = &status_;
    session().frame(0.0, options);
  }
  // Scrolls the panel to its end (the Model field is in its last sections) and moves the
  // mouse down it until ImGui reports the field hovered: no layout numbers hard-coded.
  bool click_model_field() {
    ImGuiWindow* panel = nullptr;
    for (ImGuiWindow* w : GImGui->Windows) {
      const std::string name = w->Name;  // the panel itself, not a child of it (the list box)
      const auto at = name.find("##parameters");
      if (at != std::string::npos && name.find('/', at) == std::string::npos) panel = w;
    }
    if (!panel) return false;
    mouse_ = {panel->Pos.x + panel->Size.x * 0.5f, panel->Pos.y + panel->Size.y * 0.5f};
    wheel_ = -1000.0f;
    frame();
    wheel_ = 0.0f;
    frame();
    const ImGuiID id = panel->GetID("##model");
    for (float y = panel->Pos.y; y < panel->Pos.y + panel->Size.y; y += 3.0f) {
      mouse_ = {panel->Pos.x + panel->Size.x * 0.3f, y};
      frame();
      if (GImGui->HoveredId == id) {
        field_at_ = mouse_;
        down_ = true;
        frame();
        down_ = false;
        frame();
        return GImGui->ActiveId == id;
      }
    }
    return false;
  }
  void type_and_enter(const std::string& text) {
    typed_ = text;
    frame();
    enter_ = true;
    frame();
    enter_ = false;
    frame();
  }

  fs::path cache_;
  app::StatusLine status_;
  ImVec2 mouse_{-FLT_MAX, -FLT_MAX};
  ImVec2 field_at_{0, 0};  // where the Model field was clicked
  bool down_ = false, enter_ = false;
  float wheel_ = 0.0f;
  std::string typed_;
};

TEST_F(ModelField, TypingACachedModelOpensItsConfig) {
  ASSERT_TRUE(click_model_field()) << "the Model field was not found in the parameter panel";
  type_and_enter("meta-llama/Llama-3.1-8B");
  const app::AppState& s = session().state();
  EXPECT_EQ(s.config_error, "");
  EXPECT_EQ(s.rope.theta, 500000.0);
  EXPECT_EQ(s.rope.head_dim, 128);  // hidden_size / heads
  EXPECT_EQ(s.length, 8192) << "shown at its training window";
  ASSERT_FALSE(s.recent_configs.empty());
  EXPECT_NE(s.recent_configs.front().find("0e9e39f249a16976918f6564b8830bc894c89659"), std::string::npos);
}

TEST_F(ModelField, AModelNotInTheCacheChangesNothingAndNamesTheClosest) {
  const double theta = session().state().rope.theta;
  ASSERT_TRUE(click_model_field());
  type_and_enter("meta-llama/Llama-3.1-7B");
  const app::AppState& s = session().state();
  EXPECT_EQ(s.rope.theta, theta);
  EXPECT_NE(s.config_error.find("meta-llama/Llama-3.1-8B"), std::string::npos) << s.config_error;
}

// A name only the Hub has (the stand-in Hub here): Enter fetches config.json into the
// Hugging Face cache a step per frame and opens it; "Read weights" reads the q/k weights in
// the frequency-usage view, with the numbers of the same files read from disk.
TEST_F(ModelField, AModelOnlyOnTheHubIsFetchedIntoTheCacheAndItsWeightsRead) {
  pe_test::TempDir dir;
  const fs::path repo = dir.path() / "repos" / "org" / "tiny";
  fs::create_directories(repo);
  const fs::path stories = fs::path(PE_SOURCE_DIR) / "tests" / "data" / "stories260K";
  fs::copy_file(stories / "config.json", repo / "config.json");
  fs::copy_file(stories / "model.safetensors", repo / "model.safetensors");
  pe_test::TestHub hub(dir.path() / "repos", dir.path());
  ::setenv("HF_ENDPOINT", hub.endpoint().c_str(), 1);
  ::setenv("HF_HUB_OFFLINE", "0", 1);
  ::setenv("XDG_CACHE_HOME", (dir.path() / "cache").c_str(), 1);
  ::setenv("HF_TOKEN_PATH", (dir.path() / "no-token").c_str(), 1);
  ::unsetenv("HF_TOKEN");
  ASSERT_TRUE(click_model_field());
  type_and_enter("org/tiny");
  app::AppState& s = session().state();
  const auto fetched = [&s] { return !s.recent_configs.empty() && s.recent_configs.front().find("models--org--tiny") != std::string::npos; };
  for (int k = 0; k < 400 && !fetched(); ++k) {
    frame();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(s.config_error, "") << s.config_error;
  ASSERT_TRUE(fetched()) << (s.recent_configs.empty() ? std::string("no recent config") : s.recent_configs.front());
  EXPECT_EQ(s.rope.max_position_embeddings, 512);  // stories260K's config
  EXPECT_TRUE(fs::is_symlink(s.recent_configs.front()));
  // What "Read weights" does (the panel's button sets these): the frequency-usage view reads
  // org/tiny from the Hub, a step per frame.
  s.weights = "org/tiny";
  s.weights_layer = 0;
  s.view = "frequency-usage";
  for (int k = 0; k < 20; ++k) frame();
  EXPECT_EQ(s.view, "frequency-usage");
  EXPECT_EQ(s.weights, "org/tiny");
  const app::WeightsStatus st = app::weights_status("org/tiny", true);
  ASSERT_TRUE(st.result && st.result->ok()) << (st.result ? st.result->error : "no result");
  const app::WeightsUsage disk = app::measure_weights(stories.string());
  ASSERT_TRUE(disk.ok()) << disk.error;
  for (std::size_t l = 0; l < disk.usage.layer_index.size(); ++l)
    EXPECT_TRUE((st.result->usage.q_pair_norms[l] == disk.usage.q_pair_norms[l]).all()) << "layer " << l;
  EXPECT_GT(st.result->bytes_moved, 0u);
  for (const char* v : {"HF_ENDPOINT", "XDG_CACHE_HOME", "HF_TOKEN_PATH"}) ::unsetenv(v);
  ::setenv("HF_HUB_OFFLINE", "1", 1);
  s.weights.clear();
}

TEST_F(ModelField, TheCompletionListOffersTheCachedModels) {
  ASSERT_TRUE(click_model_field());
  typed_ = "llama";
  frame();
  frame();
  // The list box is a child window of the panel named after its ID ("…/%08X").
  ImGuiWindow* panel = GImGui->HoveredWindow ? GImGui->HoveredWindow->RootWindow : nullptr;
  ASSERT_NE(panel, nullptr);
  bool listed = false;
  for (ImGuiWindow* w : GImGui->Windows) {
    char suffix[16];
    std::snprintf(suffix, sizeof suffix, "/%08X", w->ParentWindow ? w->ParentWindow->GetID("##model-matches") : 0u);
    const std::string name = w->Name;
    if (w->Active && name.size() > 9 && name.compare(name.size() - 9, 9, suffix) == 0) listed = true;
  }
  EXPECT_TRUE(listed) << "no completion list while typing";
  EXPECT_EQ(pe::closest_names("llama", pe::list_cached_models(), 8).front(), "meta-llama/Llama-3.1-8B");
}

}  // namespace
