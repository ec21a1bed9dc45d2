#pragma once
// pe/relative: relative positions and length extrapolation: T5's buckets and bias, DeBERTa's log buckets and disentangled score, BERT's relative keys (Shaw / Huang), Transformer-XL, xPos, KERPLE, Sandwich, FIRE's transform, NoPE, CoPE, and their comparison against distance.
// Uses: base, encodings, scaling, analysis.
#include "pe/relative/bucket_types.hpp"
#include "pe/relative/cope.hpp"
#include "pe/relative/deberta.hpp"
#include "pe/relative/deberta_score.hpp"
#include "pe/relative/distance_comparison.hpp"
#include "pe/relative/fire.hpp"
#include "pe/relative/kerple.hpp"
#include "pe/relative/nope.hpp"
#include "pe/relative/relative_keys.hpp"
#include "pe/relative/sandwich.hpp"
#include "pe/relative/t5_bias.hpp"
#include "pe/relative/t5_buckets.hpp"
#include "pe/relative/transformer_xl.hpp"
#include "pe/relative/xpos.hpp"
