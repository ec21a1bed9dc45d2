// Models by name from a stand-in Hub (tests/hub/test_hub.py, started here on free ports):
// `HF_ENDPOINT=<test hub> pe-viz weights --model ORG/NAME --json` gives the same numbers as
// reading the same files from disk; a second run moves no bytes; every error the Hub gives
// (gated without and with a token, repository / revision / file not found, a range answered
// with the whole file) ends with its own message and leaves nothing half-written in either
// cache; a rate limit, a server error and a cut connection are waited out, announced on
// stderr; Ctrl-C stops cleanly. The expected byte counts are worked out here from the files
// written (the headers' lengths and the q/k tensors' sizes), not taken from pe-viz.
#include <gtest/gtest.h>
#include <signal.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "../unit/weights_test_writer.hpp"
#include "child_process.hpp"
#include "test_hub_server.hpp"
#include "test_support.hpp"

namespace {

using json = nlohmann::json;
using namespace pe_test;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A Llama-shaped model: hidden 64, 4 query heads and 2 key/value heads of 16 dims, 4 layers,
// bf16; v, o and an MLP too, so the q/k rows are a part of each file.
struct Model {
  std::string config;
  std::map<std::string, Bytes> files;  // name → bytes
  std::uint64_t qk_bytes = 0;
};

Model llama(int shards, long long hidden = 64, long long heads = 4, long long kv = 2, long long hd = 16, int layers = 4) {
  Model m;
  m.config = R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": )" + std::to_string(hidden) +
             R"(, "num_attention_heads": )" + std::to_string(heads) + R"(, "num_key_value_heads": )" + std::to_string(kv) +
             R"(, "head_dim": )" + std::to_string(hd) + R"(, "num_hidden_layers": )" + std::to_string(layers) +
             R"(, "intermediate_size": 128, "max_position_embeddings": 2048, "rope_theta": 10000.0, "torch_dtype": "bfloat16"})";
  std::mt19937 rng(3);
  std::vector<SafetensorsWriter> w(static_cast<std::size_t>(shards));
  std::string index = R"({"metadata": {"total_size": 0}, "weight_map": {)";
  const auto add = [&](int shard, const std::string& name, long long rows, long long cols) {
    w[static_cast<std::size_t>(shard)].values(name, "BF16", {std::uint64_t(rows), std::uint64_t(cols)}, flat(random_rows(rows, cols, rng)));
    index += std::string(index.back() == '{' ? "" : ",") + "\"" + name + "\": \"model-0000" + std::to_string(shard + 1) + "-of-0000" +
             std::to_string(shards) + ".safetensors\"";
  };
  for (int l = 0; l < layers; ++l) {
    const int s = l * shards / layers;
    const std::string p = "model.layers." + std::to_string(l) + ".";
    add(s, p + "self_attn.q_proj.weight", heads * hd, hidden);
    add(s, p + "self_attn.k_proj.weight", kv * hd, hidden);
    add(s, p + "self_attn.v_proj.weight", kv * hd, hidden);
    add(s, p + "self_attn.o_proj.weight", hidden, heads * hd);
    add(s, p + "mlp.up_proj.weight", 128, hidden);
    m.qk_bytes += static_cast<std::uint64_t>((heads + kv) * hd * hidden * 2);
  }
  index += "}}";
  // Headers longer than the first read (bytes 0-100000): the q/k rows come on their own.
  for (auto& shard : w) shard.metadata("padding", std::string(110'000, 'p'));
  if (shards == 1) {
    m.files["model.safetensors"] = w[0].bytes();
  } else {
    m.files["model.safetensors.index.json"] = Bytes(index.begin(), index.end());
    for (int s = 0; s < shards; ++s)
      m.files["model-0000" + std::to_string(s + 1) + "-of-0000" + std::to_string(shards) + ".safetensors"] = w[static_cast<std::size_t>(s)].bytes();
  }
  return m;
}

void write_model(const Model& m, const fs::path& dir) {
  fs::create_directories(dir);
  std::ofstream(dir / "config.json") << m.config;
  for (const auto& [name, bytes] : m.files) write_bytes(dir / name, bytes);
}

// The bytes the protocol moves for `m`: config.json, the index, each shard's header (its first
// read, bytes 0-100000, and the rest: the headers here are longer), and the q/k rows.
std::uint64_t expected_bytes(const Model& m) {
  std::uint64_t n = m.config.size();
  for (const auto& [name, bytes] : m.files) {
    if (name.ends_with(".json")) {
      n += bytes.size();
      continue;
    }
    std::uint64_t len = 0;
    for (int k = 7; k >= 0; --k) len = (len << 8) | bytes[static_cast<std::size_t>(k)];
    n += 8 + len;
  }
  return n + m.qk_bytes;
}

class HubCli : public ::testing::Test {
 protected:
  void SetUp() override {
    root = dir.path() / "repos";
    local = dir.path() / "local";
    fs::create_directories(dir.path() / "io");
  }
  // pe-viz with the Hub at `hub`, caches under the test's folder, no token unless given.
  ChildResult run(const TestHub& hub, const std::vector<std::string>& args, const std::vector<std::string>& env = {}) {
    std::vector<std::string> e = {"HF_ENDPOINT=" + hub.endpoint(), "HF_HOME=" + (dir.path() / "hf").string(),
                                  "XDG_CACHE_HOME=" + (dir.path() / "cache").string(), "HF_HUB_OFFLINE=0", "HF_TOKEN=",
                                  "HUGGING_FACE_HUB_TOKEN=", "HF_HUB_CACHE=", "HUGGINGFACE_HUB_CACHE=",
                                  "HF_TOKEN_PATH=" + (dir.path() / "no-token").string(), "HOME=" + dir.path().string()};
    e.insert(e.end(), env.begin(), env.end());
    Child c(args, e, dir.path() / "io");
    return c.wait(120);
  }
  json numbers_of(const ChildResult& r) {
    EXPECT_TRUE(r.exited && r.exit_code == 0) << describe(r);
    json j = json::parse(r.out.empty() ? "{}" : r.out);
    for (const char* k : {"source", "config", "bytes_moved", "bytes_cached"}) j.erase(k);
    return j;
  }
  // Nothing half-written: no temporary file in either cache, every cached range as long as
  // its name says, every snapshot link pointing at a whole blob.
  void expect_caches_whole() {
    for (const fs::path& top : {dir.path() / "hf", dir.path() / "cache"}) {
      if (!fs::exists(top)) continue;
      for (const auto& e : fs::recursive_directory_iterator(top)) {
        const std::string name = e.path().filename().string();
        EXPECT_FALSE(contains(name, ".incomplete")) << e.path();
        const auto dash = name.find('-');
        if (top == dir.path() / "cache" && e.is_regular_file() && dash != std::string::npos && name != "size") {
          EXPECT_EQ(fs::file_size(e.path()), std::stoull(name.substr(dash + 1)) - std::stoull(name.substr(0, dash))) << e.path();
        }
        if (fs::is_symlink(e.symlink_status())) {
          EXPECT_TRUE(fs::exists(e.path())) << "broken link " << e.path();
        }
      }
    }
  }

  TempDir dir;
  fs::path root, local;
};

TEST_F(HubCli, ShardedModelGivesTheNumbersOfTheSameFilesOnDiskAndASecondRunMovesNothing) {
  const Model m = llama(2);
  write_model(m, root / "org" / "llama");
  write_model(m, local);
  TestHub hub(root, dir.path());
  const ChildResult first = run(hub, {"weights", "--model", "org/llama", "--json"});
  const ChildResult disk = run(hub, {"weights", "--model", local.string(), "--json"});
  EXPECT_EQ(numbers_of(first), numbers_of(disk));
  const json j = json::parse(first.out);
  const std::uint64_t moved = hub.stats().at("total_bytes");
  EXPECT_EQ(moved, expected_bytes(m)) << hub.stats().dump(1);
  EXPECT_EQ(j.at("bytes_moved").get<std::uint64_t>(), moved);
  // The config in the Hugging Face cache layout: a relative link into blobs/, refs/main.
  const fs::path repo = dir.path() / "hf" / "hub" / "models--org--llama";
  const std::string commit = read_all(repo / "refs" / "main");
  EXPECT_EQ(commit.size(), 40u);
  for (const char* f : {"config.json", "model.safetensors.index.json"}) {
    const fs::path link = repo / "snapshots" / commit / f;
    ASSERT_TRUE(fs::is_symlink(link)) << link;
    EXPECT_EQ(fs::read_symlink(link).string().rfind("../../blobs/", 0), 0u) << fs::read_symlink(link);
  }
  // Again: the same numbers, no byte moved.
  const ChildResult second = run(hub, {"weights", "--model", "org/llama", "--json"});
  EXPECT_EQ(numbers_of(second), numbers_of(disk));
  EXPECT_EQ(json::parse(second.out).at("bytes_moved"), 0);
  EXPECT_EQ(hub.stats().at("total_bytes").get<std::uint64_t>(), moved);
  // And offline, from the caches alone; dump finds the config there too.
  EXPECT_EQ(numbers_of(run(hub, {"weights", "--model", "org/llama", "--json"}, {"HF_HUB_OFFLINE=1"})), numbers_of(disk));
  const ChildResult dump = run(hub, {"dump", "--model", "org/llama"}, {"HF_HUB_OFFLINE=1"});
  EXPECT_EQ(dump.exit_code, 0) << describe(dump);
  EXPECT_EQ(json::parse(dump.out).at("theta"), 10000.0);
  expect_caches_whole();
}

TEST_F(HubCli, OneLayerMovesOnlyThatLayersRangesAndItsShardsHeader) {
  const Model m = llama(2);  // layers 0-1 in the first shard, 2-3 in the second
  write_model(m, root / "org" / "llama");
  write_model(m, local);
  TestHub hub(root, dir.path());
  const ChildResult r = run(hub, {"weights", "--model", "org/llama", "--layer", "3", "--json"});
  EXPECT_EQ(numbers_of(r), numbers_of(run(hub, {"weights", "--model", local.string(), "--layer", "3", "--json"})));
  const Bytes& second = m.files.at("model-00002-of-00002.safetensors");
  std::uint64_t header = 0;
  for (int k = 7; k >= 0; --k) header = (header << 8) | second[static_cast<std::size_t>(k)];
  const std::uint64_t index = m.files.at("model.safetensors.index.json").size();
  EXPECT_EQ(hub.stats().at("total_bytes").get<std::uint64_t>(), m.config.size() + index + 8 + header + m.qk_bytes / 4)
      << hub.stats().dump(1);
  const json stats = hub.stats();  // a loop over a temporary's member would read freed memory
  for (const auto& req : stats.at("requests"))
    EXPECT_FALSE(contains(req.at("path").get<std::string>(), "model-00001-of-00002")) << req.dump();
}

TEST_F(HubCli, SingleFileWhenTheIndexIsNotFound) {
  const Model m = llama(1);
  write_model(m, root / "org" / "one");
  write_model(m, local);
  TestHub hub(root, dir.path());
  EXPECT_EQ(numbers_of(run(hub, {"weights", "--model", "org/one", "--json"})), numbers_of(run(hub, {"weights", "--model", local.string(), "--json"})));
  const std::string commit = read_all(dir.path() / "hf" / "hub" / "models--org--one" / "refs" / "main");
  EXPECT_TRUE(fs::is_regular_file(dir.path() / "hf" / "hub" / "models--org--one" / ".no_exist" / commit / "model.safetensors.index.json"));
}

// A model that does not rotate (T5): its trained bias tables come over the Hub by range, the
// same numbers as the files on disk, and a second run moves nothing.
TEST_F(HubCli, AT5sBiasTablesComeByRangeWithTheNumbersOfTheFilesOnDisk) {
  Model m;
  m.config = R"({"model_type": "t5", "d_model": 8, "d_kv": 4, "num_heads": 2, "num_layers": 2, "relative_attention_num_buckets": 8})";
  SafetensorsWriter w;
  std::vector<double> v;
  for (int b = 0; b < 8; ++b)
    for (int h = 0; h < 2; ++h) v.push_back(-0.125 * b * (h + 1));
  w.values("encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", "F32", {8, 2}, v);
  w.values("decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", "F32", {8, 2}, v);
  w.metadata("padding", std::string(110'000, 'p'));  // a header longer than the first read
  m.files["model.safetensors"] = w.bytes();
  write_model(m, root / "org" / "t5");
  write_model(m, local);
  TestHub hub(root, dir.path());
  // The tensors' "file" names where each was read (the Hub's name, the local path): not compared.
  const auto without_files = [](json j) {
    for (json& t : j["tensors"]) t.erase("file");
    return j;
  };
  const ChildResult first = run(hub, {"weights", "--model", "org/t5", "--json"});
  const json remote = without_files(numbers_of(first));
  const json disk = without_files(numbers_of(run(hub, {"weights", "--model", local.string(), "--json"})));
  EXPECT_EQ(remote, disk) << json::diff(disk, remote).dump();
  ASSERT_TRUE(remote.contains("relative_attention_bias")) << first.out.substr(0, 400);
  EXPECT_DOUBLE_EQ(remote["relative_attention_bias"]["encoder"][5][1].get<double>(), -0.125 * 5 * 2);
  const ChildResult second = run(hub, {"weights", "--model", "org/t5", "--json"});
  EXPECT_EQ(without_files(numbers_of(second)), remote);
  EXPECT_EQ(json::parse(second.out.empty() ? "{}" : second.out).value("bytes_moved", -1), 0) << second.out.substr(0, 300);
}

TEST_F(HubCli, EachHubErrorHasItsMessageAndLeavesNothingHalfWritten) {
  const Model m = llama(1);
  write_model(m, root / "meta" / "gated");
  std::ofstream(root / "meta" / "gated" / ".gated") << "hf_granted\n";
  fs::create_directories(root / "org" / "configonly");
  std::ofstream(root / "org" / "configonly" / "config.json") << m.config;
  write_model(m, root / "org" / "llama");
  TestHub hub(root, dir.path());
  struct Case {
    std::vector<std::string> args, env;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"weights", "--model", "meta/gated"}, {}, "meta/gated is a gated model: its files are given only to signed-in users who accepted its terms (401 GatedRepo)"},
      {{"weights", "--model", "meta/gated"}, {"HF_TOKEN=hf_other"}, "the token from HF_TOKEN has not been granted access yet (403 GatedRepo)"},
      {{"weights", "--model", "org/nothere"}, {}, "org/nothere: no such model on " + hub.endpoint()},
      {{"weights", "--model", "org/llama@v9"}, {}, "org/llama has no revision \"v9\" (404 RevisionNotFound)"},
      {{"weights", "--model", "org/configonly"}, {}, "has neither model.safetensors.index.json nor model.safetensors"},
      {{"dump", "--model", "org/nothere"}, {}, "org/nothere: no such model on " + hub.endpoint()},
  };
  for (const Case& c : cases) {
    const ChildResult r = run(hub, c.args, c.env);
    EXPECT_TRUE(r.exited && r.exit_code == 1) << describe(r);
    EXPECT_TRUE(contains(r.err, c.says)) << describe(r);
  }
  // The gated model's page and where to make a token are named.
  const ChildResult gated = run(hub, {"weights", "--model", "meta/gated"});
  EXPECT_TRUE(contains(gated.err, "accept the terms on " + hub.endpoint() + "/meta/gated")) << gated.err;
  EXPECT_TRUE(contains(gated.err, hub.endpoint() + "/settings/tokens")) << gated.err;
  // With the token granted it reads; the token never went to the file host.
  EXPECT_EQ(run(hub, {"weights", "--model", "meta/gated"}, {"HF_TOKEN=hf_granted"}).exit_code, 0);
  const json stats = hub.stats();
  for (const auto& req : stats.at("requests"))
    if (req.at("port") == "cdn") {
      EXPECT_FALSE(req.at("authorization").get<bool>()) << req.dump();
    }
  expect_caches_whole();
}

TEST_F(HubCli, RateLimitServerErrorAndCutConnectionAreWaitedOutVisibly) {
  const Model m = llama(2);
  write_model(m, root / "org" / "llama");
  write_model(m, local);
  TestHub plain(root, dir.path() / "io");
  const json disk = numbers_of(run(plain, {"weights", "--model", local.string(), "--json"}));
  struct Case {
    std::string flag, says;
  };
  for (const Case& c : std::vector<Case>{
           {"--rate-limit-once", "rate limited by http://127.0.0.1:"},
           {"--server-error-once", "the server answered 503; waiting 1.0 s before retry 1 of 5"},
           {"--cut-once", "connection cut after"}}) {
    fs::remove_all(dir.path() / "hf");
    fs::remove_all(dir.path() / "cache");
    const fs::path io = dir.path() / ("io" + c.flag);
    fs::create_directories(io);
    TestHub hub(root, io, {c.flag});
    const ChildResult r = run(hub, {"weights", "--model", "org/llama", "--json"});
    EXPECT_EQ(numbers_of(r), disk) << c.flag;
    EXPECT_TRUE(contains(r.err, c.says)) << c.flag << "\n" << r.err;
    if (c.flag == "--rate-limit-once") {
      EXPECT_TRUE(contains(r.err, "RateLimit: \"resolvers\";r=0;t=1); waiting 2.0 s before retry 1 of 5")) << r.err;
    }
    EXPECT_EQ(hub.stats().at("faults_served").size(), 1u) << c.flag;
    expect_caches_whole();
  }
}

TEST_F(HubCli, AServerThatIgnoresRangeIsStoppedAndNamed) {
  const Model m = llama(1);
  write_model(m, root / "org" / "llama");
  TestHub hub(root, dir.path(), {"--ignore-range"});
  const ChildResult r = run(hub, {"weights", "--model", "org/llama"});
  EXPECT_TRUE(r.exited && r.exit_code == 1) << describe(r);
  EXPECT_TRUE(contains(r.err, "answered a range request (bytes=0-100000) with the whole file (200")) << r.err;
  EXPECT_TRUE(contains(r.err, "does not serve byte ranges")) << r.err;
  // No range of the file was kept.
  const fs::path ranges = dir.path() / "cache" / "pe-viz" / "hub";
  if (fs::exists(ranges)) {
    for (const auto& e : fs::recursive_directory_iterator(ranges)) {
      EXPECT_FALSE(e.is_regular_file()) << e.path();
    }
  }
  expect_caches_whole();
}

TEST_F(HubCli, OfflineWithNothingCachedSaysSoAndAsksNothing) {
  write_model(llama(1), root / "org" / "llama");
  TestHub hub(root, dir.path());
  for (const std::string cmd : {"weights", "dump"}) {
    const ChildResult r = run(hub, {cmd, "--model", "org/llama"}, {"HF_HUB_OFFLINE=1"});
    EXPECT_TRUE(r.exited && r.exit_code == 1) << describe(r);
    EXPECT_TRUE(contains(r.err, "HF_HUB_OFFLINE is set")) << r.err;
  }
  EXPECT_EQ(hub.stats().at("requests").size(), 0u);
}

TEST_F(HubCli, CtrlCStopsCleanly) {
  // 4 layers of 8 × 64-dim heads over hidden 512: 3 MiB of q/k, sent at 256 KiB/s.
  const Model m = llama(1, 512, 8, 4, 64, 4);
  write_model(m, root / "org" / "big");
  TestHub hub(root, dir.path(), {"--slow", "262144"});
  std::vector<std::string> env = {"HF_ENDPOINT=" + hub.endpoint(), "HF_HOME=" + (dir.path() / "hf").string(),
                                  "XDG_CACHE_HOME=" + (dir.path() / "cache").string(), "HF_HUB_OFFLINE=0", "HF_TOKEN=",
                                  "HF_TOKEN_PATH=" + (dir.path() / "no-token").string()};
  Child c({"weights", "--model", "org/big"}, env, dir.path() / "io");
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  ::kill(c.pid(), SIGINT);
  const ChildResult r = c.wait(30);
  EXPECT_TRUE(r.exited && r.exit_code == 130) << describe(r);
  EXPECT_TRUE(contains(r.err, "stopped (Ctrl-C)")) << r.err;
  EXPECT_LT(hub.stats().at("total_bytes").get<std::uint64_t>(), m.qk_bytes);  // it did stop early
  expect_caches_whole();
}

}  // namespace
