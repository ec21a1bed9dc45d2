// Multimodal RoPE (issue 12): what a grid view recomputes when a slider moves. Target: a
// 64 × 64 patch grid at head_dim 128 well within a 60 Hz frame (16.7 ms), both the
// separable 2D score and the flattened-1D comparison.
#include <benchmark/benchmark.h>

#include "pe/multimodal/multimodal.hpp"

namespace {

pe::MultiAxisLayout qwen2vl_text_layout() {
  return pe::mrope_layout(pe::inverse_frequencies(128, 1e6), {16, 24, 24}, false);
}

// args: grid side. Score of the centre patch against every patch (separable per axis).
void BM_GridScores(benchmark::State& state) {
  const long long side = state.range(0);
  const pe::MultiAxisLayout layout = qwen2vl_text_layout();
  const auto c = pe::multi_axis_coefficients(pe::VectorChoice::MeanOfIdentical, layout, 0, 64);
  pe::TableD out;
  for (auto _ : state) {
    pe::grid_scores_into(out, c, layout, side, side, side / 2, side / 2);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * side * side);
}

// The same grid with flattened 1D positions row·W + col (one phasor step per pair and patch).
void BM_FlattenedGridScores(benchmark::State& state) {
  const long long side = state.range(0);
  const pe::MultiAxisLayout layout = qwen2vl_text_layout();
  const auto c = pe::multi_axis_coefficients(pe::VectorChoice::MeanOfIdentical, layout, 0, 64);
  pe::TableD out;
  for (auto _ : state) {
    pe::flattened_grid_scores_into(out, c, layout, side, side, side / 2, side / 2);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * side * side);
}

// Everything a grid view needs after a θ change: layout, averaged coefficients, both grids.
void BM_GridViewRecompute(benchmark::State& state) {
  const long long side = state.range(0);
  pe::TableD grid, flat;
  double theta = 1e6;
  for (auto _ : state) {
    theta = theta == 1e6 ? 5e5 : 1e6;
    const pe::MultiAxisLayout layout = pe::mrope_layout(pe::inverse_frequencies(128, theta), {16, 24, 24}, false);
    const auto c = pe::multi_axis_coefficients(pe::VectorChoice::MeanOfIdentical, layout, 0, 64);
    pe::grid_scores_into(grid, c, layout, side, side, side / 2, side / 2);
    pe::flattened_grid_scores_into(flat, c, layout, side, side, side / 2, side / 2);
    benchmark::DoNotOptimize(grid.data());
    benchmark::DoNotOptimize(flat.data());
  }
  state.SetItemsProcessed(state.iterations() * side * side);
}

// Position ids for a prompt with a large image and a video (Qwen2.5-VL rule).
void BM_RopeIndex(benchmark::State& state) {
  const auto prompt = pe::parse_prompt_spec("text:64,image:1x256x256,text:32,video:16x64x64,text:16");
  pe::RopeIndexOptions o;
  o.family = pe::RopeIndexFamily::Qwen25VL;
  o.tokens_per_second = 2;
  long long tokens = 0;
  for (auto _ : state) {
    const pe::PositionIds ids = pe::rope_index(prompt, o);
    tokens = ids.tokens();
    benchmark::DoNotOptimize(ids.t.data());
  }
  state.SetItemsProcessed(state.iterations() * tokens);
}

}  // namespace

BENCHMARK(BM_GridScores)->Arg(64)->Arg(512)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FlattenedGridScores)->Arg(64)->Arg(512)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_GridViewRecompute)->Arg(64)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RopeIndex)->Unit(benchmark::kMicrosecond);
