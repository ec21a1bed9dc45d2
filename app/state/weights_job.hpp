#pragma once
// One reading of a weights source, in steps that never block for long, so the same job runs
// in a loop on the desktop (the CLI, the GUI's worker thread) and one step per frame in a
// browser page. The source is
//   - a path (a model folder, a .safetensors, an index, a .gguf), or ORG/NAME[@REVISION] whose
//     files are all in the local Hugging Face cache: memory-mapped, measured batch by batch;
//   - ORG/NAME[@REVISION] otherwise (and not HF_HUB_OFFLINE): read from the Hub by range
//     (pe::HubModel: config.json, the index, the headers, then only the q/k rows);
//   - files a page holds in place (a dropped multi-GB .safetensors or .gguf): read by range
//     through File.slice.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "pe/hub/hub_model.hpp"
#include "pe/weights/frequency_usage.hpp"
#include "pe/weights/open_weights.hpp"
#include "pe/weights/ranged_reading.hpp"
#include "pe/weights/ranged_weights.hpp"
#include "state/weights_usage.hpp"

namespace app {

struct WeightsJobProgress {
  std::string stage;  // what is under way: "opening", "config.json", "headers", "q/k"
  double fraction = 0.0;  // of the q/k bytes
  std::uint64_t bytes_read = 0, bytes_total = 0;  // q/k bytes summed, and to sum
  long long layer = 0, layers = 0;
  std::uint64_t bytes_moved = 0;       // over the network (the Hub) or out of a page's file
  std::uint64_t bytes_from_cache = 0;  // served from the caches instead
  double seconds = 0.0;                // since the job started
  std::string notice;                  // a wait under way ("rate limited …; waiting 5 s …"), "" none
  bool remote = false;                 // bytes come over the network / from a page's file
};

class WeightsJob {
 public:
  // `on_open` runs once the weights are open, before a byte of q/k is read; what it throws
  // ends the job with that error (the CLI checks --layer there).
  using OnOpen = std::function<void(const pe::OpenedWeights&)>;
  WeightsJob(std::string source, pe::WeightsReadOptions options, OnOpen on_open = {});
  ~WeightsJob();
  WeightsJob(const WeightsJob&) = delete;
  WeightsJob& operator=(const WeightsJob&) = delete;

  // Moves the reading along, waiting up to wait_ms for bytes. True when it has ended (take()).
  // Never throws: errors end the job.
  bool advance(int wait_ms);
  // Stops at the next step; the result is a cancelled reading (no cache is left half-written).
  void cancel();
  bool done() const;
  // A snapshot (safe from another thread).
  WeightsJobProgress progress() const;
  // Announcements since the last call (each retry's wait), for a terminal.
  std::vector<std::string> take_notices();
  WeightsUsage take();

 private:
  enum class Stage { Start, Hub, Page, Planning, Mapped, Ranged, Positions, Done };
  void start();
  void opened(pe::OpenedWeights w);
  void planned();
  void read_positions_of_model();  // a model that does not rotate: its position tensors
  void step(int wait_ms);
  void publish();
  void end(std::string error, bool cancelled = false);

  std::string source_;
  pe::WeightsReadOptions options_;
  OnOpen on_open_;
  Stage stage_ = Stage::Start;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::unique_ptr<pe::HubModel> hub_;
  std::unique_ptr<pe::RangeLoader> page_loader_;
  std::optional<pe::RangedWeightsOpening> page_opening_;
  pe::OpenedWeights weights_;
  std::optional<pe::FrequencyUsageReading> mapped_;
  std::optional<pe::RangedFrequencyReading> ranged_;
  std::optional<pe::RangedTasks> planning_;  // a ranged source's plan, loading the headers it asks for
  std::optional<pe::FrequencyUsageReading> planned_;
  WeightsUsage result_;
  std::atomic<bool> cancel_requested_{false};

  mutable std::mutex mutex_;  // guards the two below
  WeightsJobProgress progress_;
  std::vector<std::string> notices_;
  bool done_ = false;
};

// Whether `source` reads as a model name (ORG/NAME[@REVISION]) rather than a path.
bool reads_as_model_name(const std::string& source);
// The local files of a model in the Hugging Face cache when all of its weights are there
// (the snapshot folder to map), else nullopt (read it from the Hub).
std::optional<std::string> cached_weights_folder(const std::string& model);

}  // namespace app
