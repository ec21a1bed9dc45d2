#include "state/hub_config.hpp"

#include "pe/models/hf_cache.hpp"
#include "pe/weights/weights_error.hpp"
#include "platform/host.hpp"
#include "state/weights_usage.hpp"

namespace app {

std::unique_ptr<pe::HubModel> model_config_download(const std::string& model) {
  const pe::HfModelRef ref = pe::parse_model_ref(model);
  try {
    pe::resolve_cached_model(model);
    return nullptr;
  } catch (const pe::HfCacheError& e) {
    const pe::HubSettings settings = host::hub_settings();
    if (settings.offline) {
      std::string what = e.what();
      if (what.rfind("model: ", 0) == 0) what.erase(0, 7);
      throw pe::HfCacheError(what + " HF_HUB_OFFLINE is set: the Hub was not asked.");
    }
    return std::make_unique<pe::HubModel>(settings, host::make_http_transport(), ref);
  }
}

void require_config_kept(const pe::HubModel& hub) {
  if (hub.config_path().empty())
    throw pe::HubError(pe::HubErrorKind::BadAnswer, hub.ref().repo_id + ": the server named no commit (X-Repo-Commit) or ETag for "
                                                                        "config.json, so it cannot be kept in the Hugging Face cache");
}

ModelConfigFetch::ModelConfigFetch(std::string model) : model_(std::move(model)) {
  try {
    hub_ = model_config_download(model_);
    done_ = !hub_;
  } catch (const std::exception& e) {
    error_ = e.what();
    done_ = true;
  }
}

ModelConfigFetch::~ModelConfigFetch() {
  if (hub_) hub_->cancel();
}

bool ModelConfigFetch::advance(int wait_ms) {
  if (done_) return true;
  try {
    if (!hub_->advance_config(wait_ms)) return false;
    require_config_kept(*hub_);
  } catch (const std::exception& e) {
    error_ = e.what();
  }
  done_ = true;
  return true;
}

std::string ModelConfigFetch::status() const {
  if (!hub_) return {};
  const std::string notice = hub_->client().notice();
  return "Fetching config.json of " + model_ + " from " + hub_->client().settings().endpoint + ": " + byte_count(hub_->bytes_moved()) +
         (notice.empty() ? "" : " — " + notice);
}

void ModelConfigFetch::cancel() {
  if (hub_) hub_->cancel();
  if (!done_) error_ = "cancelled";
  done_ = true;
}

}  // namespace app
