#pragma once
// pe/encodings: the positional encodings themselves: RoPE tables and angles, sinusoidal, learned, ALiBi, and the per-instruction-set kernels behind them.
// Uses: base.
#include "pe/encodings/alibi.hpp"
#include "pe/encodings/angle_table.hpp"
#include "pe/encodings/learned.hpp"
#include "pe/encodings/rope.hpp"
#include "pe/encodings/simd.hpp"
#include "pe/encodings/sinusoidal.hpp"
