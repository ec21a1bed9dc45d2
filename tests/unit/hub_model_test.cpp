// A model read from a scripted Hub by name (pe/hub/hub_model.hpp): config.json, the index and
// the shards' headers come in the order the protocol gives, config.json and the index land in
// the Hugging Face cache's layout (a relative link to the blob, refs/main the commit), only the
// q/k rows are fetched, the numbers equal reading the same files from memory, and a second run
// moves no bytes. The server here answers as the Hub does (file_download.py): 307 with a
// relative Location for small files, 302 to another host for large ones, X-Repo-Commit,
// X-Linked-Etag / X-Linked-Size on the redirect, 206 with Content-Range for ranges.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "hub_test_transport.hpp"
#include "pe/hub/hub_model.hpp"
#include "pe/models/hf_cache.hpp"
#include "pe/weights/frequency_usage.hpp"
#include "pe/weights/ranged_reading.hpp"
#include "pe/weights/safetensors_checkpoint.hpp"
#include "weights_test_writer.hpp"

namespace {

using namespace pe_test;
namespace fs = std::filesystem;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

const std::string kCommit = "0123456789abcdef0123456789abcdef01234567";
const std::string kConfig = R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 64,
  "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "num_hidden_layers": 2,
  "max_position_embeddings": 256, "rope_theta": 10000.0})";

struct Repo {
  std::map<std::string, std::string> files;  // path → bytes
  std::vector<std::uint8_t> all_in_one;      // the same tensors in one file, for the numbers read from memory
};

Repo llama_repo(bool sharded) {
  std::mt19937 rng(5);
  SafetensorsWriter shard[2], one;
  std::string index = R"({"metadata": {}, "weight_map": {)";
  for (int l = 0; l < 2; ++l) {
    const std::string p = "model.layers." + std::to_string(l) + ".self_attn.";
    for (const auto& [name, rows] : {std::pair{"q_proj", 64}, {"k_proj", 32}, {"v_proj", 32}}) {
      const auto v = flat(random_rows(rows, 64, rng));
      shard[sharded ? l : 0].values(p + name + ".weight", "BF16", {std::uint64_t(rows), 64}, v);
      one.values(p + name + ".weight", "BF16", {std::uint64_t(rows), 64}, v);
      index += std::string(index.back() == '{' ? "" : ",") + "\"" + p + name + ".weight\": \"model-0000" + std::to_string(l + 1) +
               "-of-00002.safetensors\"";
    }
  }
  index += "}}";
  // Headers longer than the first read (bytes 0-100000), so the q/k rows come on their own.
  for (auto* w : {&shard[0], &shard[1]}) w->metadata("padding", std::string(120'000, 'p'));
  Repo r;
  r.files["config.json"] = kConfig;
  const auto text = [](const std::vector<std::uint8_t>& b) { return std::string(b.begin(), b.end()); };
  if (sharded) {
    r.files["model.safetensors.index.json"] = index;
    r.files["model-00001-of-00002.safetensors"] = text(shard[0].bytes());
    r.files["model-00002-of-00002.safetensors"] = text(shard[1].bytes());
  } else {
    r.files["model.safetensors"] = text(shard[0].bytes());
  }
  r.all_in_one = one.bytes();
  return r;
}

// The Hub's answers for `repo` at http://hub.test, large files redirected to http://cdn.test.
ScriptedTransport::Server hub_of(const Repo& repo, int* requests) {
  return [&repo, requests](const pe::HttpRequest& r) {
    ++*requests;
    const std::string resolve = "http://hub.test/org/llama/resolve/", cache = "http://hub.test/api/resolve-cache/models/org/llama/",
                      cdn = "http://cdn.test/";
    std::string rest;
    if (r.url.rfind(resolve, 0) == 0) rest = r.url.substr(resolve.size());
    else if (r.url.rfind(cache, 0) == 0) rest = r.url.substr(cache.size());
    else if (r.url.rfind(cdn, 0) == 0) rest = "x/" + r.url.substr(cdn.size());
    else return answer(404, {{"X-Error-Code", "RepoNotFound"}});
    const std::string revision = rest.substr(0, rest.find('/')), path = rest.substr(rest.find('/') + 1);
    if (revision != "main" && revision != kCommit && revision != "x") return answer(404, {{"X-Error-Code", "RevisionNotFound"}});
    const auto f = repo.files.find(path);
    if (f == repo.files.end()) return answer(404, {{"X-Error-Code", "EntryNotFound"}, {"X-Repo-Commit", kCommit}});
    const bool large = path.find(".safetensors") != std::string::npos && path.find(".json") == std::string::npos;
    const std::string etag = "\"etag-" + std::to_string(std::hash<std::string>{}(f->second)) + "\"";
    if (r.url.rfind(resolve, 0) == 0)
      return large ? answer(302, {{"Location", cdn + path}, {"X-Repo-Commit", kCommit}, {"X-Linked-Etag", etag},
                                  {"X-Linked-Size", std::to_string(f->second.size())}})
                   : answer(307, {{"Location", "/api/resolve-cache/models/org/llama/" + kCommit + "/" + path}, {"X-Repo-Commit", kCommit},
                                  {"ETag", etag}});
    if (!r.range) return answer(200, {{"ETag", etag}}, f->second);
    const std::uint64_t last = std::min<std::uint64_t>(r.range->end(), f->second.size()) - 1;
    return answer(206, {{"Content-Range", "bytes " + std::to_string(r.range->offset) + "-" + std::to_string(last) + "/" +
                                              std::to_string(f->second.size())}},
                  f->second.substr(r.range->offset, last - r.range->offset + 1));
  };
}

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("pe-hub-model-" + std::to_string(::getpid()) + "-" + std::to_string(std::rand()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

pe::HubSettings settings_in(const TempDir& d) {
  pe::HubSettings s;
  s.endpoint = "http://hub.test";
  s.hf_cache = {d.path / "hf" / "hub", "test"};
  s.range_cache = d.path / "pe-viz" / "hub";
  s.retry_wait_scale = 0.001;
  return s;
}

struct Read {
  pe::FrequencyUsage usage;
  std::uint64_t moved = 0;
};

Read read_by_name(const pe::HubSettings& s, std::unique_ptr<pe::HttpTransport> t, const std::string& name = "org/llama") {
  pe::HubModel m(s, std::move(t), pe::parse_model_ref(name));
  for (int k = 0; !m.advance_weights(10); ++k)
    if (k > 10000) throw std::runtime_error("no end");
  const pe::OpenedWeights w = m.take_weights();
  pe::RangedFrequencyReading r(pe::FrequencyUsageReading(*w.tensors, w.model), m.loader());
  while (!r.advance(10)) {
  }
  return {r.take(), m.bytes_moved()};
}

void expect_same_as_in_memory(const pe::FrequencyUsage& u, const Repo& repo) {
  const pe::OpenedWeights w = pe::open_hf_weights(pe::SafetensorsCheckpoint::single(pe::memory_source(repo.all_in_one, "m.safetensors")), kConfig);
  const pe::FrequencyUsage m = pe::measure_frequency_usage(*w.tensors, w.model);
  ASSERT_EQ(u.layer_index, m.layer_index);
  for (std::size_t l = 0; l < u.layer_index.size(); ++l) {
    EXPECT_TRUE((u.q_pair_norms[l] == m.q_pair_norms[l]).all());
    EXPECT_TRUE((u.k_pair_norms[l] == m.k_pair_norms[l]).all());
  }
}

TEST(HubModel, ShardedModelByNameReadsConfigIndexHeadersThenQkAndCachesThem) {
  const Repo repo = llama_repo(true);
  TempDir dir;
  int requests = 0;
  std::vector<pe::HttpRequest> log;
  const Read first = read_by_name(settings_in(dir), std::make_unique<ScriptedTransport>(hub_of(repo, &requests), &log));
  expect_same_as_in_memory(first.usage, repo);
  // config.json, then the index, by the commit config.json came from; then the headers.
  ASSERT_GE(log.size(), 6u);
  EXPECT_TRUE(contains(log[0].url, "/org/llama/resolve/main/config.json"));
  EXPECT_TRUE(contains(log[2].url, "/org/llama/resolve/" + kCommit + "/model.safetensors.index.json"));
  EXPECT_EQ(log[4].range, (pe::ByteRange{0, pe::kSafetensorsFirstRead}));
  EXPECT_EQ(log[6].range, (pe::ByteRange{0, pe::kSafetensorsFirstRead}));  // both shards' headers at once
  // Each header's rest, then only q and k rows: 2 layers × (64 + 32) rows × 64 columns × 2 bytes.
  std::uint64_t headers = 0, data = 0;
  for (const auto& r : log) {
    if (!r.range || r.url.find("cdn.test") == std::string::npos) continue;
    const std::string& file = repo.files.at(r.url.substr(r.url.rfind('/') + 1));
    const auto header_end = 8 + pe::safetensors_header_length(std::span(reinterpret_cast<const std::uint8_t*>(file.data()), 8));
    (r.range->offset < header_end ? headers : data) += r.range->length;
    if (r.range->offset < header_end) {
      EXPECT_LE(r.range->end(), header_end);
    }
  }
  EXPECT_EQ(data, 2u * 96 * 64 * 2);

  // The Hugging Face cache layout: a relative link to the blob, refs/main the commit.
  const fs::path repo_dir = dir.path / "hf" / "hub" / "models--org--llama";
  const fs::path link = repo_dir / "snapshots" / kCommit / "config.json";
  ASSERT_TRUE(fs::is_symlink(link));
  EXPECT_TRUE(fs::read_symlink(link).is_relative());
  EXPECT_EQ(fs::read_symlink(link).parent_path().filename(), "blobs");
  std::ifstream ref(repo_dir / "refs" / "main");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(ref), {}), kCommit);
  // ... where the offline lookup finds it.
  EXPECT_EQ(pe::resolve_cached_model("org/llama", {dir.path / "hf" / "hub", "test"}).commit, kCommit);

  // Again: nothing moves (a server that answers nothing would fail the reading).
  int second_requests = 0;
  const Read second = read_by_name(settings_in(dir), std::make_unique<ScriptedTransport>([&](const pe::HttpRequest&) {
                                     ++second_requests;
                                     return answer(500);
                                   }));
  EXPECT_EQ(second_requests, 0);
  EXPECT_EQ(second.moved, 0u);
  expect_same_as_in_memory(second.usage, repo);
}

TEST(HubModel, SingleFileWhenTheIndexIsNotFoundAndTheAnswerIsCached) {
  const Repo repo = llama_repo(false);
  TempDir dir;
  int requests = 0;
  const Read first = read_by_name(settings_in(dir), std::make_unique<ScriptedTransport>(hub_of(repo, &requests)));
  expect_same_as_in_memory(first.usage, repo);
  EXPECT_TRUE(fs::is_regular_file(dir.path / "hf" / "hub" / "models--org--llama" / ".no_exist" / kCommit / "model.safetensors.index.json"));
  pe::HubSettings offline = settings_in(dir);
  offline.offline = true;
  expect_same_as_in_memory(read_by_name(offline, nullptr).usage, repo);
}

TEST(HubModel, OfflineWithoutTheCacheSaysSo) {
  TempDir dir;
  pe::HubSettings s = settings_in(dir);
  s.offline = true;
  try {
    read_by_name(s, nullptr);
    FAIL();
  } catch (const pe::HubError& e) {
    EXPECT_EQ(e.kind(), pe::HubErrorKind::Offline);
    EXPECT_TRUE(contains(e.what(), "HF_HUB_OFFLINE is set")) << e.what();
  }
}

TEST(HubModel, NoSafetensorsAtAllIsNamed) {
  Repo repo;
  repo.files["config.json"] = kConfig;
  TempDir dir;
  int requests = 0;
  try {
    read_by_name(settings_in(dir), std::make_unique<ScriptedTransport>(hub_of(repo, &requests)));
    FAIL();
  } catch (const pe::HubError& e) {
    EXPECT_EQ(e.kind(), pe::HubErrorKind::EntryNotFound);
    EXPECT_TRUE(contains(e.what(), "has neither model.safetensors.index.json nor model.safetensors")) << e.what();
  }
  // Nothing half-written: no range kept for a file that does not exist.
  EXPECT_FALSE(fs::exists(dir.path / "pe-viz" / "hub" / "models--org--llama" / kCommit / "model.safetensors"));
}

}  // namespace
