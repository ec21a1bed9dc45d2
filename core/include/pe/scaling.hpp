#pragma once
// pe/scaling: RoPE configuration (RopeConfig) and its context-extension methods (linear, NTK, dynamic, YaRN, Llama 3, LongRoPE), extrapolation measures.
// Uses: base, encodings.
#include "pe/scaling/extrapolation.hpp"
#include "pe/scaling/multimodal_config.hpp"
#include "pe/scaling/scaling.hpp"
