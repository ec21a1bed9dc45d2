// Table builders against the physical floor: a memset of the same number of bytes.
// Counters: items = table entries (cos and sin count separately), bytes = bytes written.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>
#include <string>
#include <memory>

#include "pe/analysis/analysis.hpp"
#include "pe/encodings/rope.hpp"
#include "pe/encodings/simd.hpp"
#include "pe/encodings/sinusoidal.hpp"

namespace {

void set_counters(benchmark::State& state, long long entries, long long bytes) {
  state.SetItemsProcessed(state.iterations() * entries);
  state.SetBytesProcessed(state.iterations() * bytes);
}

// args: length, dim. RoPE writes length × dim/2 cos + the same sin entries (float32).
void BM_RopeTables(benchmark::State& state) {
  const long long length = state.range(0), dim = state.range(1);
  const Eigen::ArrayXd inv_freq = pe::inverse_frequencies(dim, 10000.0);
  for (auto _ : state) {
    pe::RopeTables t = pe::rope_tables(inv_freq, length);
    benchmark::DoNotOptimize(t.cos.data());
    benchmark::DoNotOptimize(t.sin.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, length * dim, length * dim * 4);
}

// Recomputing into the same tables (what a view does on a slider change): no page faults.
void BM_RopeTablesReuse(benchmark::State& state) {
  state.SetLabel(std::string("simd ") + pe::simd_level_name());
  const long long length = state.range(0), dim = state.range(1);
  const Eigen::ArrayXd inv_freq = pe::inverse_frequencies(dim, 10000.0);
  pe::RopeTables t;
  pe::rope_tables_into(t, inv_freq, length);
  for (auto _ : state) {
    pe::rope_tables_into(t, inv_freq, length);
    benchmark::DoNotOptimize(t.cos.data());
    benchmark::DoNotOptimize(t.sin.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, length * dim, length * dim * 4);
}

void BM_SinusoidalTableReuse(benchmark::State& state) {
  const long long length = state.range(0), dim = state.range(1);
  pe::TableF t;
  pe::sinusoidal_table_into(t, length, dim);
  for (auto _ : state) {
    pe::sinusoidal_table_into(t, length, dim);
    benchmark::DoNotOptimize(t.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, length * dim, length * dim * 4);
}

void BM_SinusoidalTable(benchmark::State& state) {
  const long long length = state.range(0), dim = state.range(1);
  for (auto _ : state) {
    pe::TableF t = pe::sinusoidal_table(length, dim);
    benchmark::DoNotOptimize(t.data());
    benchmark::ClobberMemory();
  }
  set_counters(state, length * dim, length * dim * 4);
}

// The floor, two ways: into a buffer already mapped ("warm"), and into a fresh allocation
// each time ("fresh", paying the page faults that a freshly returned table also pays).
void memset_warm(benchmark::State& state, int byte) {
  const std::size_t bytes = static_cast<std::size_t>(state.range(0)) * static_cast<std::size_t>(state.range(1)) * 4;
  std::unique_ptr<char[]> buffer(new char[bytes]);
  std::memset(buffer.get(), 1, bytes);
  for (auto _ : state) {
    std::memset(buffer.get(), byte, bytes);
    benchmark::DoNotOptimize(buffer.get());
    benchmark::ClobberMemory();
  }
  set_counters(state, state.range(0) * state.range(1), static_cast<long long>(bytes));
}

void BM_MemsetWarm(benchmark::State& state) { memset_warm(state, 0); }

// The same with a non-zero byte, which is what a table is: on this CI's EPYC a zero fill
// runs ~3x faster than any other value (rep stosb of 0 takes a fast path that stores of
// data cannot), so BM_MemsetWarm is a floor only a table of zeros could reach.
void BM_MemsetWarmNonzero(benchmark::State& state) { memset_warm(state, 0x3f); }

void BM_MemsetFresh(benchmark::State& state) {
  const std::size_t bytes = static_cast<std::size_t>(state.range(0)) * static_cast<std::size_t>(state.range(1)) * 4;
  for (auto _ : state) {
    std::unique_ptr<char[]> buffer(new char[bytes]);
    std::memset(buffer.get(), 0, bytes);
    benchmark::DoNotOptimize(buffer.get());
    benchmark::ClobberMemory();
  }
  set_counters(state, state.range(0) * state.range(1), static_cast<long long>(bytes));
}

// s(Δ) over 131072 evenly spaced distances at d = 128 (64 pairs).
// The relative-score view on a log Δ axis: deltas 1 … 10^6, one per two pixels of a 1080p
// plot, at d = 1024 (no recurrence: a sine and a cosine per term).
void BM_RelativeScoreCurveLog(benchmark::State& state) {
  const long long count = state.range(0), dim = state.range(1);
  state.SetLabel(std::string("simd ") + pe::simd_level_name());
  const Eigen::ArrayXd inv_freq = pe::inverse_frequencies(dim, 10000.0);
  const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(dim, -1.0, 1.0);
  const auto c = pe::relative_score_coefficients(q, q, dim / 2, pe::PairConvention::Interleaved);
  const Eigen::ArrayXd deltas = Eigen::ArrayXd::LinSpaced(count, 0.0, 6.0).unaryExpr([](double e) { return std::pow(10.0, e); });
  for (auto _ : state) {
    Eigen::ArrayXd s = pe::relative_score_curve(c, inv_freq, deltas);
    benchmark::DoNotOptimize(s.data());
  }
  set_counters(state, count * dim / 2, count * 8);
}

// The same log-axis curve the way core computed it before the vector kernels (Eigen's
// scalar cos and sin per term, Eigen's sum): the reference for the speed-up.
void BM_RelativeScoreCurveLogScalar(benchmark::State& state) {
  const long long count = state.range(0), dim = state.range(1);
  const Eigen::ArrayXd inv_freq = pe::inverse_frequencies(dim, 10000.0);
  const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(dim, -1.0, 1.0);
  const auto c = pe::relative_score_coefficients(q, q, dim / 2, pe::PairConvention::Interleaved);
  const Eigen::ArrayXd deltas = Eigen::ArrayXd::LinSpaced(count, 0.0, 6.0).unaryExpr([](double e) { return std::pow(10.0, e); });
  for (auto _ : state) {
    Eigen::ArrayXd s(count);
    for (Eigen::Index j = 0; j < count; ++j) {
      const Eigen::ArrayXd angle = deltas[j] * inv_freq;
      s[j] = c.passthrough + (c.a * angle.cos() + c.b * angle.sin()).sum();
    }
    benchmark::DoNotOptimize(s.data());
  }
  set_counters(state, count * dim / 2, count * 8);
}

void BM_RelativeScoreCurve(benchmark::State& state) {
  state.SetLabel(std::string("simd ") + pe::simd_level_name());
  const long long count = state.range(0), dim = state.range(1);
  const Eigen::ArrayXd inv_freq = pe::inverse_frequencies(dim, 10000.0);
  const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(dim, -1.0, 1.0);
  const Eigen::VectorXd k = Eigen::VectorXd::LinSpaced(dim, 0.5, -0.25);
  const auto c = pe::relative_score_coefficients(q, k, dim / 2, pe::PairConvention::Interleaved);
  const Eigen::ArrayXd deltas = Eigen::ArrayXd::LinSpaced(count, 0.0, static_cast<double>(count - 1));
  for (auto _ : state) {
    Eigen::ArrayXd s = pe::relative_score_curve(c, inv_freq, deltas);
    benchmark::DoNotOptimize(s.data());
  }
  // items: (distance, pair) terms evaluated; bytes: the curve written.
  set_counters(state, count * dim / 2, count * 8);
}

}  // namespace

BENCHMARK(BM_RopeTables)->Args({8192, 128})->Args({131072, 128})->Args({1048576, 128})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RopeTablesReuse)->Args({8192, 128})->Args({131072, 128})->Args({1048576, 128})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MemsetWarm)->Args({8192, 128})->Args({131072, 128})->Args({1048576, 128})->Args({8192, 512})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MemsetWarmNonzero)->Args({8192, 128})->Args({131072, 128})->Args({1048576, 128})->Args({8192, 512})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MemsetFresh)->Args({8192, 128})->Args({131072, 128})->Args({1048576, 128})->Args({8192, 512})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SinusoidalTable)->Args({8192, 512})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SinusoidalTableReuse)->Args({8192, 512})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RelativeScoreCurve)->Args({131072, 128})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RelativeScoreCurveLog)->Args({1024, 1024})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RelativeScoreCurveLogScalar)->Args({1024, 1024})->Unit(benchmark::kMillisecond);
