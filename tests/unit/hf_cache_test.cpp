// The Hugging Face hub cache lookup (pe/models/hf_cache.hpp) on fake cache trees laid out as
// huggingface_hub writes them (file_download.py: models--ORG--NAME/refs/<rev> holding a
// commit, snapshots/<commit>/<file>), and the cache location rules of its constants.py.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>

#include "pe/models/hf_cache.hpp"

namespace {

namespace fs = std::filesystem;

// Sets or unsets environment variables for one test and restores them afterwards.
class EnvGuard {
 public:
  void set(const char* name, const std::optional<std::string>& value) {
    if (!saved_.count(name)) {
      const char* old = std::getenv(name);
      saved_[name] = old ? std::optional<std::string>(old) : std::nullopt;
    }
    if (value) ::setenv(name, value->c_str(), 1);
    else ::unsetenv(name);
  }
  ~EnvGuard() {
    for (const auto& [k, v] : saved_) {
      if (v) ::setenv(k.c_str(), v->c_str(), 1);
      else ::unsetenv(k.c_str());
    }
  }

 private:
  std::map<std::string, std::optional<std::string>> saved_;
};

class HfCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "pe-hf-cache-XXXXXX").string();
    ASSERT_TRUE(::mkdtemp(tmpl.data()));
    root_ = tmpl;
    cache_ = {root_ / "hub", "test"};
    fs::create_directories(cache_.path);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  static void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  // A cached model: refs/main (if given) and one snapshot per commit holding config.json.
  fs::path add_model(const std::string& folder, const std::vector<std::string>& commits, const std::optional<std::string>& main,
                     const std::string& config = kConfig) {
    const fs::path repo = cache_.path / folder;
    for (const auto& c : commits) write(repo / "snapshots" / c / "config.json", config);
    if (main) write(repo / "refs" / "main", *main);
    return repo;
  }
  std::string error_of(const std::string& model) {
    try {
      pe::resolve_cached_model(model, cache_);
    } catch (const pe::HfCacheError& e) {
      EXPECT_EQ(e.key(), "model");
      return e.what();
    }
    ADD_FAILURE() << model << " resolved";
    return "";
  }

  static constexpr const char* kConfig =
      R"({"hidden_size": 2048, "num_attention_heads": 32, "max_position_embeddings": 131072, "rope_theta": 500000.0,
          "rope_scaling": {"rope_type": "llama3", "factor": 32.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                           "original_max_position_embeddings": 8192}})";
  fs::path root_;
  pe::HfCacheDir cache_;
};

TEST_F(HfCacheTest, CacheDirectoryFollowsHuggingfaceHubsPrecedence) {
  EnvGuard env;
  for (const char* v : {"HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "HF_HOME", "XDG_CACHE_HOME"}) env.set(v, std::nullopt);
  env.set("HOME", "/home/tester");
  EXPECT_EQ(pe::hf_hub_cache_dir().path, fs::path("/home/tester/.cache/huggingface/hub"));
  EXPECT_EQ(pe::hf_hub_cache_dir().origin, "~/.cache/huggingface/hub");
  env.set("XDG_CACHE_HOME", "/xdg");
  EXPECT_EQ(pe::hf_hub_cache_dir().path, fs::path("/xdg/huggingface/hub"));
  env.set("HF_HOME", "~/hf");
  EXPECT_EQ(pe::hf_hub_cache_dir().path, fs::path("/home/tester/hf/hub"));
  EXPECT_EQ(pe::hf_hub_cache_dir().origin, "HF_HOME/hub");
  env.set("HUGGINGFACE_HUB_CACHE", "/legacy");
  EXPECT_EQ(pe::hf_hub_cache_dir().path, fs::path("/legacy"));
  env.set("HF_HUB_CACHE", "/explicit/hub");
  EXPECT_EQ(pe::hf_hub_cache_dir().path, fs::path("/explicit/hub"));
  EXPECT_EQ(pe::hf_hub_cache_dir().origin, "HF_HUB_CACHE");
}

TEST_F(HfCacheTest, ModelNamesAreValidatedLikeHuggingfaceHub) {
  EXPECT_EQ(pe::parse_model_ref("meta-llama/Llama-3.1-8B").repo_id, "meta-llama/Llama-3.1-8B");
  EXPECT_EQ(pe::parse_model_ref("gpt2").repo_id, "gpt2");
  const pe::HfModelRef r = pe::parse_model_ref("Qwen/Qwen2.5-7B@v1.0");
  EXPECT_EQ(r.repo_id, "Qwen/Qwen2.5-7B");
  EXPECT_EQ(r.revision, "v1.0");
  EXPECT_TRUE(r.explicit_revision);
  EXPECT_EQ(pe::parse_model_ref("a/b").revision, "main");
  for (const char* bad : {"", "a/b/c", "a--b/c", "../etc", "-a/b", "a/b.", "a/b.git", "a b/c", "a/b@", "a/b@../x", "a/b@/x"})
    EXPECT_THROW(pe::parse_model_ref(bad), pe::HfCacheError) << bad;
  EXPECT_EQ(pe::repo_folder_name("meta-llama/Llama-3.1-8B"), "models--meta-llama--Llama-3.1-8B");
  EXPECT_EQ(pe::repo_folder_name("gpt2"), "models--gpt2");
}

TEST_F(HfCacheTest, RefsMainNamesTheSnapshot) {
  add_model("models--meta-llama--Llama-3.2-1B", {"aaa111", "bbb222"}, "bbb222\n");
  const pe::CachedModel m = pe::resolve_cached_model("meta-llama/Llama-3.2-1B", cache_);
  EXPECT_EQ(m.commit, "bbb222");
  EXPECT_EQ(m.config_path, cache_.path / "models--meta-llama--Llama-3.2-1B" / "snapshots" / "bbb222" / "config.json");
  ASSERT_FALSE(m.diagnostics.empty());
  EXPECT_EQ(m.diagnostics[0].severity, pe::Severity::Info);

  const pe::LoadedConfig c = pe::load_cached_model_config("meta-llama/Llama-3.2-1B", cache_);
  EXPECT_EQ(c.config.name, "meta-llama/Llama-3.2-1B");
  EXPECT_EQ(c.config.theta, 500000.0);
  EXPECT_EQ(c.config.head_dim, 64);
  EXPECT_EQ(c.config.scaling.type, pe::RopeType::Llama3);
  EXPECT_EQ(c.config.scaling.factor, 32.0);
  EXPECT_NE(c.config.source.find("bbb222"), std::string::npos) << c.config.source;
}

TEST_F(HfCacheTest, ExplicitRevisionsAndCommits) {
  const fs::path repo = add_model("models--org--model", {"c0ffee", "decade"}, "c0ffee");
  write(repo / "refs" / "v2", "decade");
  EXPECT_EQ(pe::resolve_cached_model("org/model@v2", cache_).commit, "decade");
  EXPECT_EQ(pe::resolve_cached_model("org/model@decade", cache_).commit, "decade");  // a commit directly
  const std::string e = error_of("org/model@v3");
  EXPECT_NE(e.find("revision \"v3\" is not cached"), std::string::npos) << e;
  EXPECT_NE(e.find("refs: main, v2"), std::string::npos) << e;
  EXPECT_NE(e.find("snapshots: c0ffee, decade"), std::string::npos) << e;
}

TEST_F(HfCacheTest, MissingRefsMainFallsBackToTheOnlySnapshot) {
  add_model("models--org--one", {"123abc"}, std::nullopt);
  const pe::CachedModel m = pe::resolve_cached_model("org/one", cache_);
  EXPECT_EQ(m.commit, "123abc");
  ASSERT_EQ(m.diagnostics.size(), 1u);
  EXPECT_EQ(m.diagnostics[0].severity, pe::Severity::Warning);
  EXPECT_NE(m.diagnostics[0].message.find("refs/main is missing"), std::string::npos);
  EXPECT_NE(m.diagnostics[0].message.find("only snapshot, 123abc"), std::string::npos);

  add_model("models--org--two", {"aaa", "bbb"}, std::nullopt);
  const std::string e = error_of("org/two");
  EXPECT_NE(e.find("snapshots: aaa, bbb"), std::string::npos) << e;
  EXPECT_NE(e.find("Choose one with org/two@COMMIT"), std::string::npos) << e;
}

TEST_F(HfCacheTest, MissingModelListsWhatWasTriedAndTheClosestCachedModels) {
  add_model("models--meta-llama--Llama-3.2-1B", {"a"}, "a");
  add_model("models--meta-llama--Llama-3.1-8B", {"b"}, "b");
  add_model("models--Qwen--Qwen2.5-7B", {"c"}, "c");
  fs::create_directories(cache_.path / "datasets--org--data");  // not a model
  const std::string e = error_of("meta-llama/Llama-3.1-70B");
  EXPECT_NE(e.find("not in the Hugging Face cache"), std::string::npos) << e;
  EXPECT_NE(e.find((cache_.path / "models--meta-llama--Llama-3.1-70B").string()), std::string::npos) << e;
  EXPECT_NE(e.find("(from test)"), std::string::npos) << e;
  EXPECT_NE(e.find("closest first: meta-llama/Llama-3.1-8B, meta-llama/Llama-3.2-1B, Qwen/Qwen2.5-7B."), std::string::npos) << e;
  EXPECT_EQ(e.find("datasets"), std::string::npos) << e;

  EXPECT_EQ(pe::list_cached_models(cache_.path),
            (std::vector<std::string>{"Qwen/Qwen2.5-7B", "meta-llama/Llama-3.1-8B", "meta-llama/Llama-3.2-1B"}));
  // A cache directory that does not exist: no models, and the message says so.
  const pe::HfCacheDir nowhere{root_ / "missing", "HF_HUB_CACHE"};
  EXPECT_TRUE(pe::list_cached_models(nowhere.path).empty());
  try {
    pe::resolve_cached_model("org/x", nowhere);
    ADD_FAILURE();
  } catch (const pe::HfCacheError& err) {
    const std::string w = err.what();
    EXPECT_NE(w.find("which does not exist"), std::string::npos) << w;
    EXPECT_NE(w.find("The cache holds no models"), std::string::npos) << w;
  }
}

TEST_F(HfCacheTest, ClosestNamesPreferSubstringsThenEditDistance) {
  const std::vector<std::string> names = {"org/alpha", "org/llama-7b", "meta/Llama-3", "x/lama"};
  EXPECT_EQ(pe::closest_names("llama", names, 3), (std::vector<std::string>{"meta/Llama-3", "org/llama-7b", "x/lama"}));
  EXPECT_EQ(pe::closest_names("org/alpah", names, 1), (std::vector<std::string>{"org/alpha"}));
}

TEST_F(HfCacheTest, SnapshotWithoutConfigPointsAtGgufFiles) {
  const fs::path repo = add_model("models--org--gguf-only", {}, "abc");
  write(repo / "snapshots" / "abc" / "model-Q4_K_M.gguf", "GGUF");
  const std::string e = error_of("org/gguf-only");
  EXPECT_NE(e.find("config.json does not exist"), std::string::npos) << e;
  EXPECT_NE(e.find("open one with --gguf"), std::string::npos) << e;
  EXPECT_NE(e.find("model-Q4_K_M.gguf"), std::string::npos) << e;

  // A config.json symlink whose blob was never downloaded.
  const fs::path repo2 = cache_.path / "models--org--broken";
  fs::create_directories(repo2 / "snapshots" / "def");
  write(repo2 / "refs" / "main", "def");
  fs::create_symlink("../../blobs/nothere", repo2 / "snapshots" / "def" / "config.json");
  EXPECT_NE(error_of("org/broken").find("broken link"), std::string::npos);

  // refs/main names a snapshot that is not there.
  add_model("models--org--dangling", {"x1"}, "y2");
  const std::string d = error_of("org/dangling");
  EXPECT_NE(d.find("names commit y2"), std::string::npos) << d;
}

TEST_F(HfCacheTest, BadConfigJsonNamesTheFileAndKey) {
  add_model("models--org--bad", {"c1"}, "c1", R"({"hidden_size": 64, "num_attention_heads": 2, "max_position_embeddings": "x"})");
  try {
    pe::load_cached_model_config("org/bad", cache_);
    ADD_FAILURE();
  } catch (const pe::ConfigError& e) {
    EXPECT_EQ(e.key(), "max_position_embeddings");
    EXPECT_NE(std::string(e.what()).find("snapshots/c1/config.json"), std::string::npos) << e.what();
  }
}

}  // namespace
