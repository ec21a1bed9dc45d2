#pragma once
// A model on the Hugging Face Hub by name (ORG/NAME[@REVISION]), opened in steps that never
// block (a browser page calls advance(0) once per frame; the desktop loops with a wait):
//   1. config.json — from the Hugging Face cache (refs/REVISION → snapshots/COMMIT), else
//      fetched and stored there (blobs, snapshots, refs: hub_caches.hpp);
//   2. model.safetensors.index.json — the same; the Hub's EntryNotFound (or a cached
//      .no_exist) means one model.safetensors;
//   3. each shard's header — bytes 0-100000, the rest when longer (over 25 MB refused) — from
//      pe-viz's range cache or the Hub, every shard at once.
// Everything after config.json is asked for by the commit config.json came from, so the files
// agree even when the branch moves meanwhile. Then the q/k measure loads only the q/k rows
// through loader() (RangedFrequencyReading), each range kept in the range cache: a second
// run moves no bytes.
#include "pe/hub/module_guard.hpp"
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "pe/hub/hub_caches.hpp"
#include "pe/hub/hub_client.hpp"
#include "pe/hub/hub_range_loader.hpp"
#include "pe/models/hf_cache.hpp"
#include "pe/weights/open_weights.hpp"
#include "pe/weights/ranged_weights.hpp"

namespace pe {

class HubModel {
 public:
  // `transport` may be null (offline: the caches only).
  HubModel(HubSettings settings, std::unique_ptr<HttpTransport> transport, HfModelRef ref);
  ~HubModel();

  // Step 1 only (dump, inspect, a model name typed in the GUI): true when config_json() is in.
  bool advance_config(int wait_ms);
  // Steps 1-3: true when the weights are open (take_weights()). `all_headers` false: the
  // shards' headers are left to the reading's planning (a reading of a few layers loads only
  // their shards' headers; RangedWeightsOpening::sharded).
  bool advance_weights(int wait_ms, bool all_headers = true);

  const HfModelRef& ref() const noexcept { return ref_; }
  const std::string& config_json() const noexcept { return config_json_; }
  // Where config.json is kept in the Hugging Face cache ("" when it is not kept).
  const std::filesystem::path& config_path() const noexcept { return config_path_; }
  // The commit the files are read at ("" until config.json is in; the revision when the Hub
  // did not say).
  const std::string& commit() const noexcept { return commit_; }
  // "ORG/NAME at COMMIT (endpoint)", for messages and the reading's source.
  std::string description() const;
  OpenedWeights take_weights();

  HubClient& client() noexcept { return client_; }
  RangeLoader& loader();
  // Bytes moved over the network so far, and served from the caches.
  std::uint64_t bytes_moved() const;
  std::uint64_t bytes_from_cache() const;
  // Stops every transfer (nothing half-written stays in either cache).
  void cancel();

 private:
  enum class Step { Config, Index, Headers, Open };
  bool advance(int wait_ms, Step until);
  void start_config();
  void finish_config(HubFetchResult r);
  void start_index();
  void finish_index();
  void open_headers();
  std::string revision_for_files() const { return commit_.empty() ? ref_.revision : commit_; }

  HubClient client_;
  RangeCache ranges_;
  HfModelRef ref_;
  Step step_ = Step::Config;
  std::optional<HubClient::Id> fetching_;
  std::string config_json_, index_json_, commit_;
  bool sharded_ = false;
  std::filesystem::path config_path_;
  std::uint64_t cache_bytes_ = 0;
  std::unique_ptr<HubRangeLoader> loader_;
  std::optional<RangedWeightsOpening> opening_;
  bool opened_ = false;
  bool all_headers_ = true;
};

// The name of the file a model's weights start from.
inline constexpr const char* kHubIndexFile = "model.safetensors.index.json";
inline constexpr const char* kHubSingleFile = "model.safetensors";

}  // namespace pe
