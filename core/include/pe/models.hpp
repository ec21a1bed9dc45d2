#pragma once
// pe/models: real models' configurations: config.json (transformers v4 and v5 shapes), class defaults, presets, the Hugging Face cache, GGUF headers, diagnostics, the per-layer plan, the framework comparison.
// Uses: base, encodings, scaling, multimodal (and analysis through it).
#include "pe/models/config.hpp"
#include "pe/models/config_diagnostics.hpp"
#include "pe/models/diagnostics.hpp"
#include "pe/models/frameworks.hpp"
#include "pe/models/gguf.hpp"
#include "pe/models/gguf_conversion.hpp"
#include "pe/models/gguf_rope.hpp"
#include "pe/models/hf_cache.hpp"
#include "pe/models/inspection_text.hpp"
#include "pe/models/layer_plan.hpp"
#include "pe/models/model_defaults.hpp"
#include "pe/models/position_encoding.hpp"
