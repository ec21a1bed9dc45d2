#pragma once
// Which rotary frequencies a trained model's q/k weights use (issue 26; the measure follows
// Barbero et al., "Round and Round We Go! What makes Rotary Positional Encodings useful?",
// ICLR 2025, who read Gemma 7B's q/k norms per frequency). Weights only: no tokenizer, no
// forward pass.
//
// Per layer ℓ, head h and rotary pair j — the pair that turns with inv_freq[j], after undoing
// the storage order (qk_layout.hpp) —
//   ‖q_{ℓ,h,j}‖ = Frobenius norm of the two rows of W_q that produce pair j of head h
//               = sqrt(‖W_q[a]‖² + ‖W_q[b]‖²),
// the same for W_k per key/value head, and per head the norm of all its non-rotary rows
// (partial rotary's tail, MLA's nope part, every row in a NoPE layer). Squares are summed in
// double from the stored values (GGUF blocks dequantised as ggml defines them).
//
// Reading goes layer by layer through the mapping: only q/k rows are touched (v rows of
// fused tensors are skipped), nothing is copied, each batch's pages are released after use,
// and the extra memory is a double per q/k row. With threads > 1 a batch's rows are split
// between threads (each row summed by one thread, so the numbers do not depend on it).
#include "pe/weights/module_guard.hpp"
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "pe/base/types.hpp"
#include "pe/models/diagnostics.hpp"
#include "pe/weights/qk_layout.hpp"
#include "pe/weights/ranged_file.hpp"
#include "pe/weights/stored_matrix.hpp"
#include "pe/weights/weights_model.hpp"

namespace pe {

struct WeightsProgress {
  double fraction = 0.0;         // of the q/k bytes to read
  std::uint64_t bytes_read = 0;  // q/k bytes read so far
  std::uint64_t bytes_total = 0;
  long long layer = 0;           // the layer being read
};
// Return false to stop: the read then throws WeightsCancelled.
using WeightsProgressCallback = std::function<bool(const WeightsProgress&)>;

struct WeightsReadOptions {
  WeightsProgressCallback progress;  // called after each batch (at most ~64 MiB of q/k bytes)
  // Threads reading a batch: 0 = as many as the machine has, 1 = only the calling thread
  // (always so where threads are not available: weights_threads_available()).
  int threads = 0;
  std::vector<long long> layers;  // the layers to read (empty: all)
  // q/k bytes per batch (0: 64 MiB): progress and cancel come at least this often, and a
  // ranged file holds about this much (a browser frame sums one batch: it asks for less).
  std::uint64_t batch_bytes = 0;
};

// Whether this build can read with more than one thread (false in the single-threaded
// browser build).
bool weights_threads_available() noexcept;

struct FrequencyUsage {
  std::string source;      // what was read ("DIR/model.safetensors.index.json (4 shards)", "model.gguf")
  std::string dtype;       // stored format(s) of the q/k tensors: "bf16", "q4_K+q6_K"
  std::string convention;  // storage order found: "half-split" or "interleaved"
  std::string convention_reason;
  std::string family;      // QkPlan::family
  long long layers = 0;    // layers in the model
  long long heads = 0, kv_heads = 0;  // the largest per layer (MLA: kv_heads = 1, the shared rotary key)
  long long training_context = 0;  // original_max_position_embeddings, else max_position_embeddings
  // The main RoPE's frequencies: as the model rotates at its full context, and unscaled.
  Eigen::ArrayXd inv_freq, original_inv_freq;

  // One entry per layer read (all, or WeightsReadOptions::layers), in layer order:
  std::vector<long long> layer_index;
  std::vector<bool> layer_attention;  // false: no q/k tensors in that layer (arrays empty)
  std::vector<bool> layer_rotary;     // false: a NoPE layer (0 pairs)
  std::vector<Eigen::ArrayXd> layer_inv_freq, layer_original_inv_freq;  // [pair], the layer's own RoPE
  std::vector<Eigen::ArrayXXd> q_pair_norms;       // heads × pairs
  std::vector<Eigen::ArrayXXd> k_pair_norms;       // kv_heads × pairs
  std::vector<Eigen::ArrayXd> q_nonrotary_norms;   // [head]: 0 when every dim rotates
  std::vector<Eigen::ArrayXd> k_nonrotary_norms;   // [kv_head]; MLA: the kv_lora_rank latent rows

  std::uint64_t bytes_read = 0;  // q/k bytes read
  std::vector<Diagnostic> notes;
};

// Reads the q/k norms of every layer (or those asked for). Throws WeightsError naming the
// file and tensor (missing or mis-shaped tensors, undecodable formats, data past the end of
// a file) and WeightsCancelled when the progress callback says stop. The sources must be held
// whole (a mapping, a buffer); ranged files are read through FrequencyUsageReading.
FrequencyUsage measure_frequency_usage(const TensorSource& source, const WeightsModel& model,
                                       const WeightsReadOptions& options = {});

// A byte range of one source (for a ranged file: what to load before a batch is read).
struct SourceRange {
  std::shared_ptr<const ByteSource> source;
  ByteRange range;
};

// The same measure in steps, for whoever must have a batch's bytes brought first (a ranged
// file: pe/weights/ranged_reading.hpp) or cannot wait for all of it at once (a browser frame).
// Planned when made — shapes and bounds checked before a byte of weights is read, so a bad last
// shard fails at once — then read a batch at a time, layer by layer. `source` and `model` must
// outlive the reading.
class FrequencyUsageReading {
 public:
  FrequencyUsageReading(const TensorSource& source, const WeightsModel& model, const WeightsReadOptions& options = {});
  ~FrequencyUsageReading();
  FrequencyUsageReading(FrequencyUsageReading&&) noexcept;
  FrequencyUsageReading& operator=(FrequencyUsageReading&&) noexcept;

  std::size_t batch_count() const;
  std::size_t next_batch() const;  // the batch read_next_batch() reads (batch_count() when done)
  bool done() const;
  // The q/k rows batch `batch` reads, a range per run of rows (several per source and layer).
  std::vector<SourceRange> batch_ranges(std::size_t batch) const;
  // Sums the next batch's rows (their bytes at hand), then reports progress: WeightsCancelled
  // when the callback says stop; a ranged file's missing bytes throw BytesNotLoaded.
  void read_next_batch();
  WeightsProgress progress() const;
  // The measure, once done().
  FrequencyUsage take();

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// The summary the CLI prints and the view draws, per layer read. The q·k weight of pair j is
//   w_j = Σ_h ‖q_{h,j}‖ · ‖k_{g(h),j}‖,
// g(h) the key/value head query head h attends with (h / (heads / kv_heads); MLA: the one
// shared rotary key) — the q norms of the heads sharing a key head, each times that key's
// norm. Shares are w_j / Σ_j w_j over the layer's pairs, ranked by frequency (fastest =
// largest inv_freq): the fastest quarter is the first round(P/4) pairs (P/4 rounded half
// up), the slowest the last round(P/4), the middle half the rest. Pairs "beyond the training
// context" are those whose unscaled wavelength 2π/original_inv_freq[j] exceeds
// training_context: pre-training never saw them turn once.
struct LayerUsage {
  long long layer = 0;
  bool attention = true, rotary = true;
  Eigen::ArrayXd qk;  // w_j per pair
  double total = 0.0;  // Σ_j w_j
  double share_fastest = 0.0, share_middle = 0.0, share_slowest = 0.0;  // 0 when total is 0
  long long fastest_pairs = 0, middle_pairs = 0, slowest_pairs = 0;
  std::vector<long long> pairs_beyond_context;  // pair indices j, ascending
  double nonrotary_qk = 0.0;  // Σ_h ‖q_nonrot_h‖ · ‖k_nonrot_g(h)‖
};
std::vector<LayerUsage> summarize_usage(const FrequencyUsage& usage);

// round(pairs / 4), halves up: the pairs in each outer quarter.
long long quarter_pairs(long long pairs);

}  // namespace pe
