#include "pe/hub/hub_model.hpp"

#include <fstream>
#include <sstream>

#include "pe/hub/hub_url.hpp"
#include "pe/weights/weights_error.hpp"

namespace pe {

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kMaxConfigBytes = std::uint64_t{16} << 20;
constexpr std::uint64_t kMaxIndexBytes = std::uint64_t{64} << 20;

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string text_of(const std::vector<std::uint8_t>& b) { return std::string(b.begin(), b.end()); }

// A browser's fetch() follows redirects itself: a small file's last URL is
// {endpoint}/api/resolve-cache/models/ORG/NAME/COMMIT/PATH, which names the commit.
std::string commit_from_url(const std::string& url, const std::string& repo_id) {
  const std::string key = "/api/resolve-cache/models/" + repo_id + "/";
  const auto at = url.find(key);
  if (at == std::string::npos) return {};
  const std::string rest = url.substr(at + key.size());
  const std::string commit = rest.substr(0, rest.find('/'));
  return valid_commit_name(commit) ? commit : std::string();
}

}  // namespace

HubModel::HubModel(HubSettings settings, std::unique_ptr<HttpTransport> transport, HfModelRef ref)
    : client_(std::move(settings), std::move(transport)), ranges_(client_.settings().range_cache), ref_(std::move(ref)) {}

HubModel::~HubModel() = default;

std::string HubModel::description() const {
  std::string s = ref_.repo_id;
  if (!commit_.empty()) s += " at " + commit_.substr(0, 12);
  else if (ref_.explicit_revision) s += "@" + ref_.revision;
  if (client_.settings().endpoint != kHubDefaultEndpoint) s += " (" + client_.settings().endpoint + ")";
  return s;
}

void HubModel::start_config() {
  const HubSettings& s = client_.settings();
  // The cache first, as today: a model read before opens offline.
  if (const auto commit = hf_cached_commit(s.hf_cache, ref_.repo_id, ref_.revision)) {
    if (const auto path = hf_cached_file(s.hf_cache, ref_.repo_id, *commit, "config.json")) {
      commit_ = *commit;
      config_path_ = *path;
      config_json_ = read_text(*path);
      cache_bytes_ += config_json_.size();
      step_ = Step::Index;
      return;
    }
  }
  if (s.offline)
    throw HubError(HubErrorKind::Offline,
                   ref_.repo_id + (ref_.explicit_revision ? "@" + ref_.revision : "") +
                       ": its config.json is not in the Hugging Face cache (" + (s.hf_cache.path / repo_folder_name(ref_.repo_id)).string() +
                       ") and HF_HUB_OFFLINE is set, so the Hub is not asked. Unset HF_HUB_OFFLINE, or download it first with `hf download " +
                       ref_.repo_id + " config.json`");
  fetching_ = client_.fetch(ref_.repo_id, ref_.revision, "config.json", std::nullopt, kMaxConfigBytes);
}

void HubModel::finish_config(HubFetchResult r) {
  config_json_ = text_of(r.answer.body);
  commit_ = valid_commit_name(r.commit) ? r.commit : commit_from_url(r.answer.url, ref_.repo_id);
  const HubSettings& s = client_.settings();
  const auto etag = etag_file_name(r.etag);
  if (!commit_.empty() && etag && !s.hf_cache.path.empty())
    config_path_ = hf_cache_store(s.hf_cache, ref_.repo_id, ref_.revision, commit_, "config.json", *etag, r.answer.body);
  step_ = Step::Index;
}

void HubModel::start_index() {
  const HubSettings& s = client_.settings();
  if (!commit_.empty()) {
    if (const auto path = hf_cached_file(s.hf_cache, ref_.repo_id, commit_, kHubIndexFile)) {
      index_json_ = read_text(*path);
      cache_bytes_ += index_json_.size();
      sharded_ = true;
      step_ = Step::Headers;
      return;
    }
    if (hf_cached_as_missing(s.hf_cache, ref_.repo_id, commit_, kHubIndexFile)) {
      sharded_ = false;
      step_ = Step::Headers;
      return;
    }
  }
  fetching_ = client_.fetch(ref_.repo_id, revision_for_files(), kHubIndexFile, std::nullopt, kMaxIndexBytes);
}

void HubModel::finish_index() {
  const HubSettings& s = client_.settings();
  try {
    HubFetchResult r = client_.take(*fetching_);
    fetching_.reset();
    index_json_ = text_of(r.answer.body);
    sharded_ = true;
    const auto etag = etag_file_name(r.etag);
    if (!commit_.empty() && etag && !s.hf_cache.path.empty())
      hf_cache_store(s.hf_cache, ref_.repo_id, ref_.revision, commit_, kHubIndexFile, *etag, r.answer.body);
  } catch (const HubError& e) {
    fetching_.reset();
    if (e.kind() != HubErrorKind::EntryNotFound) throw;
    sharded_ = false;  // one model.safetensors
    if (!commit_.empty() && !s.hf_cache.path.empty()) hf_cache_store_missing(s.hf_cache, ref_.repo_id, ref_.revision, commit_, kHubIndexFile);
  }
  step_ = Step::Headers;
}

void HubModel::open_headers() {
  // Ranges are cached by commit: without one (a server that did not say) they are not kept.
  static RangeCache no_cache;
  const bool real_commit = !commit_.empty();
  loader_ = std::make_unique<HubRangeLoader>(client_, real_commit ? ranges_ : no_cache, ref_.repo_id, revision_for_files());
  const std::string where = description() + ": ";
  if (sharded_) {
    opening_ = RangedWeightsOpening::sharded(config_json_, where + "config.json", index_json_, where + kHubIndexFile,
                                             [this](const std::string& shard) { return loader_->file(shard); }, all_headers_);
  } else {
    opening_ = RangedWeightsOpening::safetensors(config_json_, where + "config.json", loader_->file(kHubSingleFile));
  }
  step_ = Step::Open;
}

bool HubModel::advance(int wait_ms, Step until) {
  for (;;) {
    switch (step_) {
      case Step::Config:
        if (!fetching_) {
          start_config();
          if (step_ != Step::Config) continue;
        }
        client_.pump(wait_ms);
        if (!client_.finished(*fetching_)) return false;
        {
          const HubClient::Id id = *fetching_;
          fetching_.reset();
          finish_config(client_.take(id));
        }
        continue;
      case Step::Index:
        if (until == Step::Config) return true;
        if (!fetching_) {
          start_index();
          if (step_ != Step::Index) continue;
        }
        client_.pump(wait_ms);
        if (!client_.finished(*fetching_)) return false;
        finish_index();
        continue;
      case Step::Headers:
        if (until == Step::Config) return true;
        open_headers();
        continue;
      case Step::Open:
        if (until == Step::Config) return true;
        try {
          return opened_ = opening_->advance(*loader_, wait_ms);
        } catch (const HubError& e) {
          if (!sharded_ && e.kind() == HubErrorKind::EntryNotFound)
            throw HubError(HubErrorKind::EntryNotFound,
                           ref_.repo_id + " has neither " + kHubIndexFile + " nor " + kHubSingleFile + " at " + revision_for_files() +
                               ": its q/k weights are read from safetensors checkpoints (a GGUF repository: download the .gguf file "
                               "and give it with --gguf)",
                           e.status());
          throw;
        }
    }
  }
}

bool HubModel::advance_config(int wait_ms) { return advance(wait_ms, Step::Config); }
bool HubModel::advance_weights(int wait_ms, bool all_headers) {
  all_headers_ = all_headers;
  return opened_ || advance(wait_ms, Step::Open);
}

OpenedWeights HubModel::take_weights() {
  OpenedWeights w = opening_->take();
  w.config_path = config_path_;
  return w;
}

RangeLoader& HubModel::loader() {
  if (!loader_) throw std::logic_error("HubModel::loader before the weights were opened");
  return *loader_;
}

std::uint64_t HubModel::bytes_moved() const { return client_.bytes_received(); }

std::uint64_t HubModel::bytes_from_cache() const { return cache_bytes_ + (loader_ ? loader_->bytes_from_cache() : 0); }

void HubModel::cancel() {
  if (loader_) loader_->cancel();
  client_.cancel_all();
  fetching_.reset();
}

}  // namespace pe
