#pragma once
// pe/multimodal: multi-axis RoPE: M-RoPE and its interleaved form, vision 2D, axial; prompt position ids; patch-grid scores.
// Uses: base, encodings, scaling, analysis.
#include "pe/multimodal/multimodal.hpp"
