#pragma once
// A model's config.json by name (ORG/NAME[@REVISION]) wherever --model is given (dump,
// inspect, weights, the GUI): the local Hugging Face cache first, as before; else, unless
// HF_HUB_OFFLINE, it is fetched from the Hub (HF_ENDPOINT, HF_TOKEN …) and stored in the cache
// in huggingface_hub's layout, so pe::resolve_cached_model — and transformers — find it
// offline from then on.
#include <memory>
#include <string>

#include "pe/hub/hub_model.hpp"

namespace app {

// What is needed to fetch the model's config.json: null when it is in the cache already
// (nothing to fetch). Throws pe::HfCacheError for a bad name and, when HF_HUB_OFFLINE is set,
// the cache's own message (what was tried, what is cached) and that the Hub was not asked.
std::unique_ptr<pe::HubModel> model_config_download(const std::string& model);
// After the download: throws pe::HubError when the cache could not keep config.json (the
// server named no commit or ETag for it).
void require_config_kept(const pe::HubModel& hub);

// The download in steps for the GUI, a step per frame (a page cannot wait); the CLI waits for
// it with ensure_model_config (cli/model_config.hpp).
class ModelConfigFetch {
 public:
  explicit ModelConfigFetch(std::string model);
  ~ModelConfigFetch();
  // True when it has ended: error() "" when the config is in the cache now.
  bool advance(int wait_ms);
  const std::string& model() const { return model_; }
  const std::string& error() const { return error_; }
  // What is under way, for a status line ("config.json of ORG/NAME: 1.2 KiB …").
  std::string status() const;
  void cancel();

 private:
  std::string model_, error_;
  std::unique_ptr<pe::HubModel> hub_;
  bool done_ = false;
};

}  // namespace app
