#include "state/weights_job.hpp"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "pe/hub/hub_caches.hpp"
#include "pe/models/hf_cache.hpp"
#include "pe/weights/safetensors_checkpoint.hpp"
#include "pe/weights/weights_error.hpp"
#include "platform/host.hpp"
#include "state/app_state.hpp"

namespace app {

namespace fs = std::filesystem;

namespace {

// A page pumps with wait 0 and sums one batch a frame: batches small enough for a frame.
constexpr std::uint64_t kPageBatchBytes = std::uint64_t{8} << 20;

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw pe::WeightsError(p.string(), "", "cannot open");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// A page's index whose shards the page holds in place (read by range); else its shards are
// files in the page's file system, memory-mapped like any others.
bool shards_held(const std::string& index) {
  try {
    const auto c = pe::SafetensorsCheckpoint::sharded(read_text(index), index, [](const std::string&) { return nullptr; });
    const fs::path folder = fs::path(index).parent_path();
    for (const std::string& shard : c.files())
      if (host::page_file((folder / shard).string())) return true;
  } catch (const std::exception&) {
  }
  return false;
}

}  // namespace

bool reads_as_model_name(const std::string& s) {
  if (s.empty() || s[0] == '/' || s[0] == '.' || s[0] == '~') return false;
  const std::string name = s.substr(0, s.find('@'));
  return std::count(name.begin(), name.end(), '/') == 1 && name.back() != '/';
}

std::optional<std::string> cached_weights_folder(const std::string& model) {
  pe::CachedModel cached;
  try {
    cached = pe::resolve_cached_model(model);
  } catch (const pe::ConfigError&) {
    return std::nullopt;
  }
  std::error_code ec;
  const fs::path dir = cached.snapshot_dir;
  if (fs::is_regular_file(dir / pe::kSafetensorsIndexName, ec)) {
    // Every shard the index names must be there (links to present blobs).
    try {
      const auto c = pe::SafetensorsCheckpoint::sharded(read_text(dir / pe::kSafetensorsIndexName), pe::kSafetensorsIndexName,
                                                        [](const std::string&) { return nullptr; });
      for (const std::string& shard : c.files())
        if (!fs::is_regular_file(dir / shard, ec)) return std::nullopt;
      return dir.string();
    } catch (const pe::WeightsError&) {
      return dir.string();  // a broken index: reading the folder names the problem
    }
  }
  if (fs::is_regular_file(dir / pe::kSafetensorsSingleName, ec)) return dir.string();
  return std::nullopt;
}

WeightsJob::WeightsJob(std::string source, pe::WeightsReadOptions options, OnOpen on_open)
    : source_(std::move(source)), options_(std::move(options)), on_open_(std::move(on_open)) {
  result_.source = source_;
  progress_.stage = "opening";
}

WeightsJob::~WeightsJob() {
  if (hub_) hub_->cancel();
  if (page_loader_) page_loader_->cancel();
}

void WeightsJob::start() {
  if (source_.empty()) throw pe::WeightsError("", "", "no weights given: a model folder, a .safetensors or .gguf file, or ORG/NAME");
  // A file a page holds in place (dropped or picked): ranges through File.slice.
  if (const auto file = host::page_file(source_)) {
    page_loader_ = host::make_page_file_loader();
    if (is_gguf_path(source_)) {
      page_opening_ = pe::RangedWeightsOpening::gguf(file);
    } else {
      // config.json beside it (small files are in the page's file system).
      const fs::path folder = fs::path(source_).parent_path();
      const fs::path config = (folder.empty() ? fs::path(".") : folder) / "config.json";
      std::error_code ec;
      if (!fs::exists(config, ec))
        throw pe::WeightsError(source_, "", "no config.json beside the weights: drop the model's config.json with it (the heads and "
                                            "widths that cut W_q and W_k come from it)");
      page_opening_ = pe::RangedWeightsOpening::safetensors(read_text(config), config.string(), file);
    }
    stage_ = Stage::Page;
    std::lock_guard lock(mutex_);
    progress_.remote = true;
    return;
  }
  if (ends_with(source_, ".safetensors.index.json") && !host::capabilities().file_paths && shards_held(source_)) {
    // A page's index (small: in its file system) and its shards held in place.
    const std::string index = read_text(source_);
    const fs::path folder = fs::path(source_).parent_path();
    const fs::path config = (folder.empty() ? fs::path(".") : folder) / "config.json";
    page_loader_ = host::make_page_file_loader();
    page_opening_ = pe::RangedWeightsOpening::sharded(read_text(config), config.string(), index, source_,
                                                      [folder](const std::string& shard) -> std::shared_ptr<const pe::RangedFile> {
                                                        return host::page_file((folder / shard).string());
                                                      });
    stage_ = Stage::Page;
    std::lock_guard lock(mutex_);
    progress_.remote = true;
    return;
  }
  std::error_code ec;
  if (fs::exists(source_, ec)) return opened(open_weights_source(source_));
  if (!reads_as_model_name(source_)) throw pe::WeightsError(source_, "", "no such file or folder");
  if (const auto folder = cached_weights_folder(source_)) return opened(pe::open_weights(*folder));
  // On the Hub (the model's name checked first: a bad one is named before any request).
  const pe::HfModelRef ref = pe::parse_model_ref(source_);
  const pe::HubSettings settings = host::hub_settings();
  hub_ = std::make_unique<pe::HubModel>(settings, settings.offline ? nullptr : host::make_http_transport(), ref);
  stage_ = Stage::Hub;
  std::lock_guard lock(mutex_);
  progress_.stage = "config.json";
  progress_.remote = true;
}

void WeightsJob::opened(pe::OpenedWeights w) {
  weights_ = std::move(w);
  result_.config = weights_.config_path.string();
  result_.encoding = weights_.encoding;
  result_.rotary = weights_.rotary();
  if (on_open_) on_open_(weights_);
  if (!result_.rotary) return read_positions_of_model();
  {
    std::lock_guard lock(mutex_);
    progress_.layers = weights_.model.shape.num_hidden_layers;
    progress_.stage = "q/k";
  }
  pe::WeightsReadOptions o = options_;
  if (page_loader_ && o.batch_bytes == 0) o.batch_bytes = kPageBatchBytes;
  if (!hub_ && !page_loader_) {
    mapped_.emplace(*weights_.tensors, weights_.model, o);
    stage_ = Stage::Mapped;
    return;
  }
  // Planning reads the shapes of the tensors it needs: the headers of their shards, loaded as
  // it asks for them (all of them are in already when every layer is read).
  planning_.emplace();
  planning_->add([this, o] { planned_.emplace(*weights_.tensors, weights_.model, o); }, pe::widen_safetensors_read);
  stage_ = Stage::Planning;
}

void WeightsJob::read_positions_of_model() {
  {
    std::lock_guard lock(mutex_);
    progress_.stage = "positions";
  }
  const auto keep_going = [this] { return !cancel_requested_.load(); };
  if (!hub_ && !page_loader_) {
    read_positions(weights_, result_, keep_going);
    stage_ = Stage::Done;
    return;
  }
  // The position tensors are small (a table, a bias per bucket): the reading runs again from
  // the start after each range it stops at is loaded.
  planning_.emplace();
  planning_->add([this, keep_going] { read_positions(weights_, result_, keep_going); });
  stage_ = Stage::Positions;
}

void WeightsJob::planned() {
  // Over a network, two batches load while one is summed: the link stays busy through the
  // round trips of the next requests.
  ranged_.emplace(std::move(*planned_), hub_ ? hub_->loader() : *page_loader_, hub_ ? 2 : 1);
  planned_.reset();
  stage_ = Stage::Ranged;
}

void WeightsJob::step(int wait_ms) {
  switch (stage_) {
    case Stage::Start: start(); break;
    case Stage::Hub:
      if (hub_->advance_weights(wait_ms, options_.layers.empty())) opened(hub_->take_weights());
      else if (std::lock_guard lock(mutex_); progress_.stage == "config.json" && !hub_->commit().empty())
        progress_.stage = "headers";
      break;
    case Stage::Page:
      if (page_opening_->advance(*page_loader_, wait_ms)) opened(page_opening_->take());
      break;
    case Stage::Positions:
      if (planning_->advance(hub_ ? hub_->loader() : *page_loader_, wait_ms)) stage_ = Stage::Done;
      break;
    case Stage::Planning:
      if (planning_->advance(hub_ ? hub_->loader() : *page_loader_, wait_ms)) planned();
      break;
    case Stage::Mapped:
      mapped_->read_next_batch();
      if (mapped_->done()) {
        result_.usage = mapped_->take();
        stage_ = Stage::Done;
      }
      break;
    case Stage::Ranged:
      if (ranged_->advance(wait_ms)) {
        result_.usage = ranged_->take();
        stage_ = Stage::Done;
      }
      break;
    case Stage::Done: break;
  }
}

void WeightsJob::publish() {
  std::lock_guard lock(mutex_);
  WeightsJobProgress& p = progress_;
  const pe::WeightsProgress w = mapped_ ? mapped_->progress() : ranged_ ? ranged_->progress() : pe::WeightsProgress{};
  p.fraction = w.fraction;
  p.bytes_read = w.bytes_read;
  p.bytes_total = w.bytes_total;
  p.layer = w.layer;
  p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  if (hub_) {
    p.bytes_moved = hub_->bytes_moved();
    p.bytes_from_cache = hub_->bytes_from_cache();
    p.notice = hub_->client().notice();
    for (std::string& n : hub_->client().take_notices()) notices_.push_back(std::move(n));
  } else if (page_loader_) {
    p.bytes_moved = page_loader_->bytes_moved();
    p.notice = page_loader_->notice();
  }
}

void WeightsJob::end(std::string error, bool cancelled) {
  if (hub_) hub_->cancel();
  if (page_loader_) page_loader_->cancel();
  result_.error = std::move(error);
  result_.cancelled = cancelled;
  stage_ = Stage::Done;
}

bool WeightsJob::advance(int wait_ms) {
  if (stage_ == Stage::Done) return true;
  if (cancel_requested_) {
    end("", true);
  } else {
    try {
      step(wait_ms);
    } catch (const pe::WeightsCancelled&) {
      end("", true);
    } catch (const std::exception& e) {
      end(e.what());
    }
  }
  publish();
  if (stage_ == Stage::Done) {
    const auto moved = progress().bytes_moved;
    result_.seconds = progress().seconds;
    result_.bytes_moved = moved;
    result_.bytes_from_cache = progress().bytes_from_cache;
    if (result_.ok() && result_.rotary) result_.summary = pe::summarize_usage(result_.usage);
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  return stage_ == Stage::Done;
}

void WeightsJob::cancel() { cancel_requested_ = true; }

bool WeightsJob::done() const {
  std::lock_guard lock(mutex_);
  return done_;
}

WeightsJobProgress WeightsJob::progress() const {
  std::lock_guard lock(mutex_);
  return progress_;
}

std::vector<std::string> WeightsJob::take_notices() {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  out.swap(notices_);
  return out;
}

WeightsUsage WeightsJob::take() {
  result_.serial = next_weights_serial();
  return std::move(result_);
}

}  // namespace app
