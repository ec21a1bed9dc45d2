#pragma once
// Which rotary frequencies a trained model's q/k weights use (issue 26), for `pe-viz weights`
// and the frequency-usage view: where a weights source is (a path or a Hugging Face cache
// model), the measure read from it (pe/weights), and — for the GUI — one reading at a time on
// a worker thread with its progress and a way to cancel it, so no frame waits for a 16 GB
// checkpoint. Results are cached per source; exports and CSV wait for theirs.
#include <cstdint>
#include <string>
#include <vector>

#include <optional>

#include "pe/analysis/position_table_analysis.hpp"
#include "pe/weights/frequency_usage.hpp"
#include "pe/weights/open_weights.hpp"
#include "pe/weights/position_tensors.hpp"

namespace app {

// What `--weights`, the session key "weights" and a dropped path name: a model folder, a
// .safetensors file, a model.safetensors.index.json, a .gguf, or ORG/NAME[@REVISION] — in the
// local Hugging Face cache, else on the Hub (read by range: state/weights_job.hpp). A path
// that exists is opened as it is (mapped).
// open_weights_source opens what is on this machine: a path, or a model whose files are all
// in the cache. Throws pe::WeightsError (naming the file, the tensor, the config.json) or
// pe::HfCacheError (naming the paths tried).
pe::OpenedWeights open_weights_source(const std::string& source);
// A GGUF file, whatever its name ends with (`pe-viz weights --gguf FILE`).
pe::OpenedWeights open_gguf_source(const std::string& path);

// Whether a dropped path is weights rather than a config: a folder, a .safetensors file or a
// *.safetensors.index.json (a .gguf is both: its config and its weights).
bool is_weights_path(const std::string& path);

// What a learned position table holds (pe/analysis/position_table_analysis.hpp), computed
// once when the table is read (on the reading's thread in the GUI): the views draw it.
struct TrainedTableAnalysis {
  std::string role;       // "position_embeddings" or "encoder_position_embeddings" (the table analysed)
  long long stride = 1;   // positions 0, stride, 2·stride, ... (1: all) when the similarity would be too large
  pe::TableF similarity;  // positions/stride × positions/stride cosine similarities
  Eigen::VectorXd similarity_by_distance;  // mean similarity at distance 0, 1, 2, ... (in sampled positions)
  pe::PositionComponents components;       // the leading kTrainedComponents
  pe::DimensionSpectra spectra;            // each dimension's amplitude over frequency
};
inline constexpr long long kTrainedComponents = 8;
// The similarity is computed on at most this many positions (a stride over longer tables).
inline constexpr long long kMaxSimilarityPositions = 4096;

// One measured model: the numbers, their per-layer summary, and how the read went.
struct WeightsUsage {
  std::string source;  // as given (a path or ORG/NAME)
  std::string config;  // the config.json read ("" for GGUF)
  std::string error;   // why it could not be read ("" when it was)
  bool cancelled = false;
  // The model's positional encoding. A model that rotates gets the frequency usage (`usage`,
  // `summary`); one that does not (GPT-2, BERT, T5, DeBERTa, ...) gets its trained position
  // tensors instead (`positions`, `analysis`) and never a frequency usage.
  pe::PositionEncodingInfo encoding;
  bool rotary = true;
  pe::TrainedPositions positions;
  std::optional<TrainedTableAnalysis> analysis;
  pe::FrequencyUsage usage;
  std::vector<pe::LayerUsage> summary;  // summarize_usage(usage)
  double seconds = 0.0;                 // reading the q/k (or position) weights (and, from the Hub, fetching them)
  std::uint64_t bytes_moved = 0;        // over the network (the Hub) or out of a page's file
  std::uint64_t bytes_from_cache = 0;   // served from the caches instead (a model read before)
  unsigned long long serial = 0;        // a number no other reading in this process has (caches key on it)
  bool ok() const { return error.empty() && !cancelled; }
};

// What training made of a model that does not rotate: its position tensors and, for a learned
// table, their analysis, into `out`. `keep_going` false stops the reading (cancelled). Over
// ranged files it throws pe::BytesNotLoaded for the caller to load and call again.
void read_positions(const pe::OpenedWeights& opened, WeightsUsage& out, const std::function<bool()>& keep_going);

// Opens and measures `source` here and now, waiting for the Hub if it must (errors are
// returned, not thrown).
WeightsUsage measure_weights(const std::string& source, const pe::WeightsReadOptions& options = {});
WeightsUsage measure_opened(const pe::OpenedWeights& opened, const std::string& source, const pe::WeightsReadOptions& options);
// A number no other reading in this process has (WeightsUsage::serial).
unsigned long long next_weights_serial();

// The GUI's reading of a source.
struct WeightsStatus {
  const WeightsUsage* result = nullptr;  // the finished reading (error or cancel included); nullptr while reading
  bool reading = false;
  double fraction = 0.0;  // of the q/k bytes
  std::uint64_t bytes_read = 0, bytes_total = 0;
  long long layer = 0, layers = 0;
  std::string stage;                 // "opening", "config.json", "headers", "q/k"
  bool remote = false;               // from the Hub or a page's file
  std::uint64_t bytes_moved = 0;     // over the network so far
  double seconds = 0.0;
  std::string notice;                // a wait under way (a rate limit, a retry), "" none
};
// The result for `source`, starting its reading when there is none (one reading at a time:
// asking for another source cancels the one under way). The reading runs on a worker thread
// on the desktop, a step per call in a page (where there are no threads). `wait`: finish the
// work now (exports, CSV). Call from the GUI thread only.
WeightsStatus weights_status(const std::string& source, bool wait);
// Stops the reading under way (it ends as a cancelled result).
void cancel_weights_reading();
// Forgets the result for `source` (a cancelled or failed reading tried again, a file rewritten).
void forget_weights(const std::string& source);

// The numbers as one tidy table, a row per (layer, kind, head, pair), for pandas
// (pd.read_csv) or R: columns
//   layer, kind, head, kv_head, pair, inv_freq, original_inv_freq, wavelength, beyond_context, norm
// kind q / k: a rotary pair's norm √(‖W[a]‖² + ‖W[b]‖²) of query head `head` (kv_head: the key
// head it attends with) or of key head `head`; q_nonrotary / k_nonrotary (only in layers with
// non-rotary dims): the norm of the head's other rows, pair and frequencies empty. inv_freq is
// the layer's frequency as rotated at the full context, original_inv_freq unscaled,
// wavelength = 2π / original_inv_freq ("inf" for a pair that does not turn), beyond_context
// whether it exceeds the training context. Numbers with 17 significant digits.
std::string weights_csv_header();
std::string weights_csv(const WeightsUsage& usage);

// The analysis of the model's learned table (its only or decoder's, else its encoder's);
// nullopt when it has none. Throws what core throws (a table over the memory budget).
std::optional<TrainedTableAnalysis> analyse_trained_table(const pe::TrainedPositions& positions);

// The trained T5 bias of the model at state.weights for one stack (decoder: the causal one;
// the t5-bias view passes state.causal), once its reading has finished; nullptr while nothing
// is loaded, while it is being read, when it failed, or when the model has no such stack (a
// T5EncoderModel has no decoder). The stack's params are the model's (num_buckets,
// max_distance, causal), its tensors and file say where it came from; its tables are not
// `illustrative`. Asking starts the reading when it has not started; `wait` (exports, CSV)
// finishes it first. Call from the GUI thread.
struct AppState;
const pe::T5StackTables* loaded_t5_stack(const AppState& state, bool decoder, bool wait = false);
const pe::T5StackBias* loaded_t5_bias(const AppState& state, bool decoder, bool wait = false);
// The finished reading of state.weights (nullptr while none, or still reading, or failed),
// for views that draw what it holds; its `serial` changes with every reading (cache keys).
const WeightsUsage* loaded_weights(const AppState& state, bool wait = false);

// Formatting shared by the CLI and the view.
std::string byte_count(std::uint64_t bytes);  // "1.25 GiB", "120 KiB", "512 bytes"
// "0, 2-5, 9" for sorted pair indices.
std::string pair_ranges(const std::vector<long long>& pairs);

}  // namespace app
