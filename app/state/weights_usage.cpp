#include "state/weights_usage.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <numbers>
#include <optional>
#include <thread>

#include "pe/models/hf_cache.hpp"
#include "pe/models/layer_plan.hpp"
#include "pe/weights/byte_source.hpp"
#include "pe/weights/weights_error.hpp"
#include "platform/frame_pacing.hpp"
#include "platform/host.hpp"
#include "state/app_state.hpp"
#include "state/weights_job.hpp"

namespace app {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

pe::OpenedWeights open_weights_source(const std::string& source) {
  if (source.empty()) throw pe::WeightsError("", "", "no weights given: a model folder, a .safetensors or .gguf file, or ORG/NAME");
  std::error_code ec;
  if (fs::exists(source, ec)) return pe::open_weights(source);
  if (!reads_as_model_name(source)) throw pe::WeightsError(source, "", "no such file or folder");
  // Not on disk: a model in the local Hugging Face cache (its snapshot folder holds the
  // config.json and the safetensors files, as links into the cache's blobs).
  pe::CachedModel cached;
  try {
    cached = pe::resolve_cached_model(source);
  } catch (const pe::HfCacheError& e) {
    // The cache's message says what was tried; its advice is about config.json alone, and the
    // weights need the safetensors files too.
    std::string why = e.what();
    if (why.rfind("model: ", 0) == 0) why.erase(0, 7);
    if (const auto advice = why.find(" Download its config.json"); advice != std::string::npos) why.erase(advice);
    throw pe::WeightsError(source, "", "no such file or folder, nor a model in the local Hugging Face cache (" + why +
                                           " `hf download " + source.substr(0, source.find('@')) + "` fetches the model)");
  }
  return pe::open_weights(cached.snapshot_dir);
}

pe::OpenedWeights open_gguf_source(const std::string& path) { return pe::open_gguf_weights(pe::map_file(path)); }

bool is_weights_path(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return true;
  const std::string l = lower(path);
  return ends_with(l, ".safetensors") || ends_with(l, ".safetensors.index.json");
}

unsigned long long next_weights_serial() {
  static std::atomic<unsigned long long> readings{0};
  return ++readings;
}

std::optional<TrainedTableAnalysis> analyse_trained_table(const pe::TrainedPositions& positions) {
  const pe::LearnedPositionTable* t = positions.position_embeddings ? &*positions.position_embeddings
                                      : positions.encoder_position_embeddings ? &*positions.encoder_position_embeddings
                                                                              : nullptr;
  if (!t || t->values.rows() < 2) return std::nullopt;
  TrainedTableAnalysis a;
  a.role = positions.position_embeddings ? "position_embeddings" : "encoder_position_embeddings";
  const pe::MatrixF table = t->values.matrix();
  const long long P = table.rows();
  a.stride = (P + kMaxSimilarityPositions - 1) / kMaxSimilarityPositions;
  if (a.stride == 1) {
    a.similarity = pe::position_cosine_similarity(table);
  } else {
    pe::MatrixF sampled((P + a.stride - 1) / a.stride, table.cols());
    for (Eigen::Index r = 0; r < sampled.rows(); ++r) sampled.row(r) = table.row(r * a.stride);
    a.similarity = pe::position_cosine_similarity(sampled);
  }
  a.similarity_by_distance = pe::mean_similarity_by_distance(a.similarity);
  a.components = pe::position_principal_components(table, kTrainedComponents);
  a.spectra = pe::dimension_spectra(table);
  return a;
}

void read_positions(const pe::OpenedWeights& opened, WeightsUsage& out, const std::function<bool()>& keep_going) {
  out.positions = pe::read_trained_positions(*opened.tensors, opened.position_spec, keep_going);
  out.analysis = analyse_trained_table(out.positions);
}

WeightsUsage measure_opened(const pe::OpenedWeights& opened, const std::string& source, const pe::WeightsReadOptions& options) {
  WeightsUsage out;
  out.source = source;
  out.serial = next_weights_serial();
  out.config = opened.config_path.string();
  out.encoding = opened.encoding;
  out.rotary = opened.rotary();
  try {
    const auto start = std::chrono::steady_clock::now();
    if (out.rotary) {
      out.usage = pe::measure_frequency_usage(*opened.tensors, opened.model, options);
    } else {
      // No q/k rotation to measure: the progress callback only says whether to go on.
      pe::WeightsProgress none;
      read_positions(opened, out, [&] { return !options.progress || options.progress(none); });
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (out.rotary) out.summary = pe::summarize_usage(out.usage);
  } catch (const pe::WeightsCancelled&) {
    out.cancelled = true;
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  return out;
}

WeightsUsage measure_weights(const std::string& source, const pe::WeightsReadOptions& options) {
  WeightsJob job(source, options);
  while (!job.advance(100)) {
  }
  return job.take();
}

// ---- The GUI's reading ------------------------------------------------------------------

namespace {

struct Job {
  std::string source;
  std::shared_ptr<WeightsJob> job;
  std::future<void> thread;  // the desktop's worker (none in a page: stepped per frame)
};

struct Readings {
  std::map<std::string, WeightsUsage> done;  // by source, at most a few
  std::optional<Job> job;
  std::vector<Job> retiring;  // cancelled jobs finishing their step
  // Quitting mid-read waits for one step, not for the rest of the checkpoint.
  ~Readings() {
    if (job) job->job->cancel();
    for (auto& r : retiring) r.job->cancel();
  }
};

Readings& readings() {
  static Readings r;
  return r;
}

// The GUI keeps a core for itself: frames stay smooth while a big checkpoint is read.
int gui_threads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n > 2 ? static_cast<int>(n - 1) : 1;
}

Job start_job(const std::string& source) {
  pe::WeightsReadOptions o;
  o.threads = gui_threads();
  Job j{source, std::make_shared<WeightsJob>(source, o), {}};
  if (pe::weights_threads_available())
    j.thread = std::async(std::launch::async, [job = j.job] {
      while (!job->advance(50)) wake_gui();
      wake_gui();
    });
  return j;
}

bool finished(Job& j) {
  if (j.thread.valid()) return j.thread.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
  // A page: a few steps a frame, for at most ~10 ms (one batch of q/k is summed per step).
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(10);
  while (!j.job->advance(0))
    if (std::chrono::steady_clock::now() >= until) return false;
  return true;
}

void keep(Readings& r, WeightsUsage result) {
  if (r.done.size() >= 4) r.done.erase(r.done.begin());
  const std::string source = result.source;
  r.done[source] = std::move(result);
}

void sweep_retiring(Readings& r) {
  std::erase_if(r.retiring, [](Job& j) { return !j.thread.valid() || j.thread.wait_for(std::chrono::seconds(0)) == std::future_status::ready; });
}

}  // namespace

WeightsStatus weights_status(const std::string& source, bool wait) {
  Readings& r = readings();
  sweep_retiring(r);
  WeightsStatus status;
  if (r.job && r.job->source != source) {
    // Another model is asked for: the one under way stops at its next step.
    r.job->job->cancel();
    r.retiring.push_back(std::move(*r.job));
    r.job.reset();
  }
  if (const auto it = r.done.find(source); it != r.done.end() && !r.job) {
    status.result = &it->second;
    return status;
  }
  if (!r.job) r.job = start_job(source);
  if (wait) {
    if (r.job->thread.valid()) r.job->thread.wait();
    else
      // A page cannot wait for bytes from the network or a held file: they arrive between its
      // frames. There the view shows the reading under way instead.
      while (!r.job->job->advance(100))
        if (!host::capabilities().file_paths && r.job->job->progress().remote) break;
  }
  if (finished(*r.job)) {
    WeightsUsage done = r.job->job->take();
    if (host::capabilities().persistent_runtime)  // a page: its console says when (the browser tests wait for it)
      host::log_line("pe-viz: weights of " + done.source + ": " +
                     (done.ok() ? "read, " + std::to_string(done.bytes_moved) + " bytes moved in " + std::to_string(done.seconds) + " s"
                                : done.cancelled ? std::string("cancelled") : "not read: " + done.error));
    keep(r, std::move(done));
    r.job.reset();
    status.result = &r.done.at(source);
    return status;
  }
  const WeightsJobProgress p = r.job->job->progress();
  status.reading = true;
  status.fraction = p.fraction;
  status.bytes_read = p.bytes_read;
  status.bytes_total = p.bytes_total;
  status.layer = p.layer;
  status.layers = p.layers;
  status.stage = p.stage;
  status.remote = p.remote;
  status.bytes_moved = p.bytes_moved;
  status.seconds = p.seconds;
  status.notice = p.notice;
  return status;
}

void cancel_weights_reading() {
  Readings& r = readings();
  if (r.job) r.job->job->cancel();
}

void forget_weights(const std::string& source) { readings().done.erase(source); }

namespace {

std::string number17(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (std::isnan(v)) return "nan";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

std::string weights_csv_header() {
  return "layer,kind,head,kv_head,pair,inv_freq,original_inv_freq,wavelength,beyond_context,norm";
}

std::string weights_csv(const WeightsUsage& w) {
  const pe::FrequencyUsage& u = w.usage;
  std::string out = weights_csv_header() + "\n";
  for (std::size_t e = 0; e < u.layer_index.size(); ++e) {
    if (!u.layer_attention[e]) continue;
    const std::string layer = std::to_string(u.layer_index[e]);
    const Eigen::ArrayXXd& q = u.q_pair_norms[e];
    const Eigen::ArrayXXd& k = u.k_pair_norms[e];
    const Eigen::ArrayXd& f = u.layer_inv_freq[e];
    const Eigen::ArrayXd& f0 = u.layer_original_inv_freq[e];
    const long long heads = q.rows(), kv = k.rows(), pairs = q.cols();
    const long long group = kv > 0 ? std::max<long long>(heads / kv, 1) : 1;
    const auto pair_cells = [&](long long j) {
      const double wl = f0[j] > 0 ? 2.0 * std::numbers::pi / f0[j] : std::numeric_limits<double>::infinity();
      return std::to_string(j) + "," + number17(f[j]) + "," + number17(f0[j]) + "," + number17(wl) + "," +
             (wl > double(u.training_context) ? "true" : "false");
    };
    for (long long h = 0; h < heads; ++h)
      for (long long j = 0; j < pairs; ++j)
        out += layer + ",q," + std::to_string(h) + "," + std::to_string(std::min(h / group, kv - 1)) + "," + pair_cells(j) + "," +
               number17(q(h, j)) + "\n";
    for (long long h = 0; h < kv; ++h)
      for (long long j = 0; j < pairs; ++j)
        out += layer + ",k," + std::to_string(h) + "," + std::to_string(h) + "," + pair_cells(j) + "," + number17(k(h, j)) + "\n";
    const Eigen::ArrayXd& qn = u.q_nonrotary_norms[e];
    const Eigen::ArrayXd& kn = u.k_nonrotary_norms[e];
    if ((qn > 0).any() || (kn > 0).any()) {
      for (Eigen::Index h = 0; h < qn.size(); ++h)
        out += layer + ",q_nonrotary," + std::to_string(h) + "," + std::to_string(std::min<long long>(h / group, kv - 1)) + ",,,,,," +
               number17(qn[h]) + "\n";
      for (Eigen::Index h = 0; h < kn.size(); ++h)
        out += layer + ",k_nonrotary," + std::to_string(h) + "," + std::to_string(h) + ",,,,,," + number17(kn[h]) + "\n";
    }
  }
  return out;
}

const WeightsUsage* loaded_weights(const AppState& state, bool wait) {
  if (state.weights.empty()) return nullptr;
  const WeightsStatus st = weights_status(state.weights, wait);
  return st.result && st.result->ok() ? st.result : nullptr;
}

const pe::T5StackTables* loaded_t5_stack(const AppState& state, bool decoder, bool wait) {
  const WeightsUsage* w = loaded_weights(state, wait);
  if (!w) return nullptr;
  const auto& stack = decoder ? w->positions.decoder_bias : w->positions.encoder_bias;
  return stack ? &*stack : nullptr;
}

const pe::T5StackBias* loaded_t5_bias(const AppState& state, bool decoder, bool wait) {
  const pe::T5StackTables* s = loaded_t5_stack(state, decoder, wait);
  return s ? &s->bias : nullptr;
}

std::string byte_count(std::uint64_t bytes) {
  char buf[64];
  const double b = static_cast<double>(bytes);
  if (bytes >= (1ull << 30)) std::snprintf(buf, sizeof buf, "%.2f GiB", b / double(1ull << 30));
  else if (bytes >= (1ull << 20)) std::snprintf(buf, sizeof buf, "%.1f MiB", b / double(1ull << 20));
  else if (bytes >= (1ull << 10)) std::snprintf(buf, sizeof buf, "%.1f KiB", b / 1024.0);
  else std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(bytes));
  return buf;
}

std::string pair_ranges(const std::vector<long long>& pairs) { return pe::format_layer_ranges(pairs); }

}  // namespace app
