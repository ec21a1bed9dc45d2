// The q/k pair-norm measure (frequency_usage.hpp): plan the rows, read their sums of squares
// layer by layer in batches, then combine rows into pairs and non-rotary blocks.
#include "pe/weights/frequency_usage.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>

#include "parallel_parts.hpp"
#include "pe/base/errors.hpp"
#include "pe/weights/fp8_quantization.hpp"
#include "pe/weights/weights_error.hpp"

namespace pe {

namespace {

// Progress is reported (and cancel honoured) at least this often, and a batch's pages are
// released when it is done: the mapping never holds more than about this much of q/k data.
constexpr std::uint64_t kBatchBytes = std::uint64_t{64} << 20;

// Rows [first, first + count) of one matrix, summed into sums[first ...].
struct RowRun {
  const StoredMatrix* matrix = nullptr;
  std::vector<double>* sums = nullptr;
  long long first = 0, count = 0;
  std::uint64_t bytes() const { return static_cast<std::uint64_t>(count) * matrix->row_bytes; }
};

// The rows of each head block, merged where they touch (a q_proj is one run; a GPT-NeoX
// query_key_value is q_h and k_h of each head, skipping v_h).
void add_runs(const HeadRows& h, std::vector<std::pair<long long, long long>>& runs) {
  for (long long head = 0; head < h.heads; ++head) runs.emplace_back(h.head_first_row(head), h.head_dim);
}

std::vector<std::pair<long long, long long>> merged(std::vector<std::pair<long long, long long>> runs) {
  std::sort(runs.begin(), runs.end());
  std::vector<std::pair<long long, long long>> out;
  for (const auto& [first, count] : runs) {
    if (!out.empty() && first <= out.back().first + out.back().second) {
      out.back().second = std::max(out.back().second, first + count - out.back().first);
    } else {
      out.emplace_back(first, count);
    }
  }
  return out;
}

// Cuts runs into batches of at most batch_bytes (a run longer than that is split by rows).
std::vector<std::vector<RowRun>> batches_of(const std::vector<RowRun>& runs, std::uint64_t batch_bytes) {
  std::vector<std::vector<RowRun>> out(1);
  std::uint64_t in_batch = 0;
  for (RowRun run : runs) {
    while (run.count > 0) {
      const std::uint64_t room = batch_bytes - in_batch;
      const long long fits = std::max<long long>(1, static_cast<long long>(room / std::max<std::uint64_t>(run.matrix->row_bytes, 1)));
      RowRun part = run;
      part.count = std::min(run.count, fits);
      out.back().push_back(part);
      in_batch += part.bytes();
      run.first += part.count;
      run.count -= part.count;
      if (in_batch >= batch_bytes) {
        out.emplace_back();
        in_batch = 0;
      }
    }
  }
  if (out.back().empty()) out.pop_back();
  return out;
}

// Sums one batch's rows. Threads take chunks of rows from a shared counter rather than a fixed
// half each: on a machine busy with other work a descheduled thread then delays nothing (a
// fixed split made 2 threads 4× slower than 1 on the 2-core machine under load). Each row is
// still summed by one thread, start to end, so the numbers do not depend on who summed it.
void read_batch(const std::vector<RowRun>& batch, int threads) {
  long long rows = 0;
  for (const auto& r : batch) rows += r.count;
  if (rows == 0) return;
  constexpr long long kChunkRows = 64;
  const long long chunks = (rows + kChunkRows - 1) / kChunkRows;
  std::atomic<long long> next{0};
  detail::run_parts(static_cast<int>(std::min<long long>(threads, chunks)), [&](int) {
    for (long long c = next.fetch_add(1); c < chunks; c = next.fetch_add(1)) {
      const long long begin = c * kChunkRows, end = std::min(rows, begin + kChunkRows);
      long long at = 0;  // flattened row index of the current run's first row
      for (const auto& r : batch) {
        const long long lo = std::max(begin, at), hi = std::min(end, at + r.count);
        if (lo < hi) row_sum_squares(*r.matrix, r.first + (lo - at), hi - lo, r.sums->data() + r.first + (lo - at));
        at += r.count;
        if (at >= end) break;
      }
    }
  });
}

void hint(const std::vector<RowRun>& batch, bool done) {
  for (const auto& r : batch) {
    const std::uint64_t offset = r.matrix->offset + static_cast<std::uint64_t>(r.first) * r.matrix->row_bytes;
    if (done) r.matrix->source->done_reading(offset, r.bytes());
    else r.matrix->source->will_read(offset, r.bytes());
    if (const auto& s = r.matrix->scales) {  // the block scales these rows use (a few hundred bytes)
      const std::uint64_t at = s->byte_offset_of_rows(r.first), n = s->bytes_of_rows(r.first, r.count);
      if (done) s->source->done_reading(at, n);
      else s->source->will_read(at, n);
    }
  }
}

// What FP8 block scales were applied, once per format and block size.
void note_block_scales(const StoredMatrix& m, std::vector<Diagnostic>& notes) {
  if (!m.scales) return;
  const std::string text = std::string(to_string(m.format)) + " weights are multiplied by their block scales (the …" +
                           kScaleInvSuffix + " tensors, one per " + std::to_string(m.scales->block_rows) + " × " +
                           std::to_string(m.scales->block_cols) + " block) before their squares are summed";
  for (const auto& n : notes)
    if (n.message == text) return;
  notes.push_back({Severity::Info, "", text});
}

// Pair and non-rotary norms of one projection from its rows' sums of squares.
void projection_norms(const HeadRows& h, const std::vector<double>& ss, Eigen::ArrayXXd& pairs, Eigen::ArrayXd& rest) {
  pairs.resize(h.heads, h.pairs());
  rest.resize(h.heads);
  for (long long head = 0; head < h.heads; ++head) {
    for (long long j = 0; j < h.pairs(); ++j) {
      const auto [a, b] = h.pair_rows(head, j);
      pairs(head, j) = std::sqrt(ss[static_cast<std::size_t>(a)] + ss[static_cast<std::size_t>(b)]);
    }
    double other = 0.0;
    const long long first = h.head_first_row(head);
    for (long long r = 0; r < h.head_dim; ++r)
      if (!h.rotary_row(r)) other += ss[static_cast<std::size_t>(first + r)];
    rest(head) = std::sqrt(other);
  }
}

struct Frequencies {
  Eigen::ArrayXd inv_freq, original;
};

Frequencies frequencies_of(const RopeConfig& c, const std::string& source) {
  try {
    const ScaledFrequencies f = scaled_frequencies(c, c.max_position_embeddings);
    return {f.inv_freq, f.original_inv_freq};
  } catch (const InvalidArgument& e) {
    throw WeightsError(source, "", std::string("the RoPE configuration is not usable: ") + e.what());
  }
}

struct LayerWork {
  const LayerQkPlan* plan = nullptr;
  StoredMatrix q, k;
  bool shared = false;  // q and k are rows of one fused tensor
  std::vector<double> q_sums, k_sums;
  std::vector<RowRun> runs;
  std::uint64_t bytes = 0;
};

struct Batch {
  std::size_t layer;
  std::vector<RowRun> runs;
  bool last_of_layer;
};

}  // namespace

struct FrequencyUsageReading::State {
  QkPlan plan;
  const WeightsModel* model = nullptr;
  WeightsReadOptions options;
  FrequencyUsage u;
  Frequencies main;
  std::vector<LayerWork> work;
  std::map<std::size_t, Frequencies> by_config;
  std::vector<Batch> batches;
  std::size_t next = 0;
  std::uint64_t total = 0, done = 0;
  long long layer = 0;
  int threads = 1;

  void plan_layers(const TensorSource& source);
  void plan_batches();
  void finish_layer(const LayerWork& w);
};

// Every layer's matrices and row runs first: shapes and bounds are checked before a byte of
// weights is read, so a bad last shard fails at once, not after minutes.
void FrequencyUsageReading::State::plan_layers(const TensorSource& source) {
  work.resize(plan.layers.size());
  std::vector<std::string> formats;
  for (std::size_t i = 0; i < plan.layers.size(); ++i) {
    const LayerQkPlan& p = plan.layers[i];
    LayerWork& w = work[i];
    w.plan = &p;
    if (!p.attention) continue;
    w.q = source.matrix(p.q.tensor);
    w.shared = p.k.tensor == p.q.tensor;
    if (!w.shared) w.k = source.matrix(p.k.tensor);
    const StoredMatrix& k = w.shared ? w.q : w.k;
    for (const StoredMatrix* m : {static_cast<const StoredMatrix*>(&w.q), &k}) {
      if (std::find(formats.begin(), formats.end(), to_string(m->format)) == formats.end()) formats.push_back(to_string(m->format));
      note_block_scales(*m, u.notes);
    }
    std::vector<std::pair<long long, long long>> q_runs, k_runs;
    add_runs(p.q.rows, q_runs);
    add_runs(p.k.rows, w.shared ? q_runs : k_runs);
    for (const auto& [first, count] : merged(q_runs)) w.runs.push_back({&w.q, &w.q_sums, first, count});
    for (const auto& [first, count] : merged(k_runs)) w.runs.push_back({&w.k, &w.k_sums, first, count});
    for (const auto& r : w.runs) w.bytes += r.bytes();
    total += w.bytes;
    if (p.rotary) {
      const LayerRow& row = model->row_of(p.layer);
      const std::size_t c = model->plan.rows.empty() ? 0 : row.config_index;
      if (!by_config.count(c))
        by_config[c] = model->plan.rows.empty() ? main : frequencies_of(model->plan.config_of(row), model->source);
      const long long n = by_config[c].inv_freq.size();
      if (n != p.q.rows.pairs())
        throw WeightsError(model->source, "",
                           "layer " + std::to_string(p.layer) + ": its RoPE has " + std::to_string(n) + " frequencies but " +
                               std::to_string(p.q.rows.pairs()) + " rotary pairs per head (rotary dims " +
                               std::to_string(p.q.rows.rotary_dims) + ")");
    }
  }
  u.dtype.clear();
  for (const auto& f : formats) u.dtype += (u.dtype.empty() ? "" : "+") + f;
}

// The batches of all layers in order, so the next one (maybe the next layer's first) can be
// announced (a mapping) or loaded (a ranged file) while this one is summed.
void FrequencyUsageReading::State::plan_batches() {
  for (std::size_t i = 0; i < work.size(); ++i) {
    auto parts = batches_of(work[i].runs, options.batch_bytes > 0 ? options.batch_bytes : kBatchBytes);
    for (std::size_t b = 0; b < parts.size(); ++b) batches.push_back({i, std::move(parts[b]), b + 1 == parts.size()});
    if (parts.empty()) batches.push_back({i, {}, true});  // a layer without q/k still gets its (empty) entry
  }
}

void FrequencyUsageReading::State::finish_layer(const LayerWork& w) {
  const LayerQkPlan& p = *w.plan;
  u.layer_index.push_back(p.layer);
  u.layer_attention.push_back(p.attention);
  u.layer_rotary.push_back(p.attention && p.rotary);
  Eigen::ArrayXXd qp, kp;
  Eigen::ArrayXd qr, kr;
  Eigen::ArrayXd inv, orig;
  if (p.attention) {
    projection_norms(p.q.rows, w.q_sums, qp, qr);
    projection_norms(p.k.rows, w.shared ? w.q_sums : w.k_sums, kp, kr);
    u.heads = std::max(u.heads, p.q.rows.heads);
    u.kv_heads = std::max(u.kv_heads, p.k.rows.heads);
    if (p.rotary) {
      const std::size_t c = model->plan.rows.empty() ? 0 : model->row_of(p.layer).config_index;
      inv = by_config[c].inv_freq;
      orig = by_config[c].original;
    }
  }
  u.q_pair_norms.push_back(std::move(qp));
  u.k_pair_norms.push_back(std::move(kp));
  u.q_nonrotary_norms.push_back(std::move(qr));
  u.k_nonrotary_norms.push_back(std::move(kr));
  u.layer_inv_freq.push_back(std::move(inv));
  u.layer_original_inv_freq.push_back(std::move(orig));
}

FrequencyUsageReading::FrequencyUsageReading(const TensorSource& source, const WeightsModel& model, const WeightsReadOptions& options)
    : s_(std::make_unique<State>()) {
  State& s = *s_;
  s.plan = plan_qk(source, model, options.layers);
  s.model = &model;
  s.options = options;
  FrequencyUsage& u = s.u;
  u.source = source.description();
  u.family = s.plan.family;
  u.convention = to_string(s.plan.stored_order);
  u.convention_reason = model.stored_order_reason;
  u.layers = model.shape.num_hidden_layers > 0 ? model.shape.num_hidden_layers : static_cast<long long>(s.plan.layers.size());
  u.training_context = model.rope.original_max_position_embeddings();
  s.main = frequencies_of(model.rope, model.source);
  u.inv_freq = s.main.inv_freq;
  u.original_inv_freq = s.main.original;
  u.notes = model.notes;
  u.notes.insert(u.notes.end(), s.plan.notes.begin(), s.plan.notes.end());
  s.plan_layers(source);
  s.plan_batches();
  s.threads = detail::weights_thread_count(options.threads);
}

FrequencyUsageReading::~FrequencyUsageReading() = default;
FrequencyUsageReading::FrequencyUsageReading(FrequencyUsageReading&&) noexcept = default;
FrequencyUsageReading& FrequencyUsageReading::operator=(FrequencyUsageReading&&) noexcept = default;

std::size_t FrequencyUsageReading::batch_count() const { return s_->batches.size(); }
std::size_t FrequencyUsageReading::next_batch() const { return s_->next; }
bool FrequencyUsageReading::done() const { return s_->next >= s_->batches.size(); }

std::vector<SourceRange> FrequencyUsageReading::batch_ranges(std::size_t batch) const {
  std::vector<SourceRange> out;
  if (batch >= s_->batches.size()) return out;
  for (const auto& r : s_->batches[batch].runs) {
    out.push_back({r.matrix->source, {r.matrix->offset + static_cast<std::uint64_t>(r.first) * r.matrix->row_bytes, r.bytes()}});
    if (const auto& sc = r.matrix->scales)  // FP8's block scales of these rows, read with them
      out.push_back({sc->source, {sc->byte_offset_of_rows(r.first), sc->bytes_of_rows(r.first, r.count)}});
  }
  return out;
}

WeightsProgress FrequencyUsageReading::progress() const {
  const State& s = *s_;
  return {s.total ? static_cast<double>(s.done) / static_cast<double>(s.total) : 1.0, s.done, s.total, s.layer};
}

void FrequencyUsageReading::read_next_batch() {
  State& s = *s_;
  if (done()) return;
  const std::size_t b = s.next;
  LayerWork& w = s.work[s.batches[b].layer];
  const LayerQkPlan& p = *w.plan;
  s.layer = p.layer;
  if (w.q_sums.empty() && p.attention) {  // a layer's sums live only while it is read
    w.q_sums.assign(static_cast<std::size_t>(w.q.rows), 0.0);
    if (!w.shared) w.k_sums.assign(static_cast<std::size_t>(w.k.rows), 0.0);
  }
  if (b + 1 < s.batches.size()) hint(s.batches[b + 1].runs, false);
  read_batch(s.batches[b].runs, s.threads);
  hint(s.batches[b].runs, true);
  for (const auto& r : s.batches[b].runs) s.done += r.bytes();
  ++s.next;
  if (!s.batches[b].runs.empty() && s.options.progress && !s.options.progress(progress())) throw WeightsCancelled();
  if (!s.batches[b].last_of_layer) return;
  s.finish_layer(w);
  // The sums are no longer needed: a 61-layer model keeps only its norms.
  std::vector<double>().swap(w.q_sums);
  std::vector<double>().swap(w.k_sums);
}

FrequencyUsage FrequencyUsageReading::take() {
  s_->u.bytes_read = s_->done;
  return std::move(s_->u);
}

FrequencyUsage measure_frequency_usage(const TensorSource& source, const WeightsModel& model, const WeightsReadOptions& options) {
  FrequencyUsageReading reading(source, model, options);
  while (!reading.done()) reading.read_next_batch();
  return reading.take();
}

long long quarter_pairs(long long pairs) { return pairs <= 0 ? 0 : (pairs + 2) / 4; }

std::vector<LayerUsage> summarize_usage(const FrequencyUsage& u) {
  std::vector<LayerUsage> out;
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  for (std::size_t i = 0; i < u.layer_index.size(); ++i) {
    LayerUsage s;
    s.layer = u.layer_index[i];
    s.attention = u.layer_attention[i];
    s.rotary = u.layer_rotary[i];
    const Eigen::ArrayXXd& q = u.q_pair_norms[i];
    const Eigen::ArrayXXd& k = u.k_pair_norms[i];
    const long long heads = q.rows(), kv = k.rows();
    const long long group = kv > 0 ? std::max<long long>(1, heads / kv) : 1;
    const long long pairs = s.rotary ? q.cols() : 0;
    s.qk = Eigen::ArrayXd::Zero(pairs);
    for (long long h = 0; h < heads && kv > 0; ++h) {
      const long long g = std::min(h / group, kv - 1);
      if (pairs > 0) s.qk += q.row(h).transpose() * k.row(g).transpose();
      s.nonrotary_qk += u.q_nonrotary_norms[i](h) * u.k_nonrotary_norms[i](g);
    }
    s.total = s.qk.sum();
    // Pairs ranked fastest first (largest inv_freq; the original order breaks ties).
    const Eigen::ArrayXd& inv = u.layer_inv_freq[i];
    std::vector<long long> rank(static_cast<std::size_t>(pairs));
    for (long long j = 0; j < pairs; ++j) rank[static_cast<std::size_t>(j)] = j;
    if (inv.size() == pairs) std::stable_sort(rank.begin(), rank.end(), [&](long long a, long long b) { return inv(a) > inv(b); });
    s.fastest_pairs = s.slowest_pairs = quarter_pairs(pairs);
    s.middle_pairs = pairs - 2 * s.fastest_pairs;
    double fast = 0, middle = 0, slow = 0;
    for (long long r = 0; r < pairs; ++r) {
      const double w = s.qk(rank[static_cast<std::size_t>(r)]);
      if (r < s.fastest_pairs) fast += w;
      else if (r >= pairs - s.slowest_pairs) slow += w;
      else middle += w;
    }
    if (s.total > 0) {
      s.share_fastest = fast / s.total;
      s.share_middle = middle / s.total;
      s.share_slowest = slow / s.total;
    }
    const Eigen::ArrayXd& orig = u.layer_original_inv_freq[i];
    for (long long j = 0; j < orig.size() && j < pairs; ++j)
      if (orig(j) <= 0.0 || kTwoPi / orig(j) > static_cast<double>(u.training_context)) s.pairs_beyond_context.push_back(j);
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace pe
