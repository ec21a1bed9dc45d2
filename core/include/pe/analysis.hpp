#pragma once
// pe/analysis: what the encodings imply: relative scores, attention maps, method comparisons, the walkthrough, the worked examples and common mistakes, and what a learned position table holds (similarity, principal components, spectra).
// Uses: base, encodings, scaling.
#include "pe/analysis/analysis.hpp"
#include "pe/analysis/interleaved_cache_mix.hpp"
#include "pe/analysis/method_comparison.hpp"
#include "pe/analysis/position_table_analysis.hpp"
#include "pe/analysis/teaching_numbers.hpp"
#include "pe/analysis/theta_bounds.hpp"
#include "pe/analysis/token_attention.hpp"
#include "pe/analysis/walkthrough.hpp"
