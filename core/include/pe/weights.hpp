#pragma once
// pe/weights: real models' weights, read for what training made of RoPE: safetensors (single or sharded) and GGUF tensors (f32, f16, bf16, FP8 E4M3/E5M2 with block scales, q8_0, q4_0, q4_1, q5_0, q5_1, iq4_nl, iq4_xs, q2_K, q3_K, q4_K, q5_K, q6_K) over memory-mapped files, buffers or files loaded in ranges (the Hub, a browser's File), each family's q/k layout, and the per-pair q/k norm measure with its summary, and the trained position tensors (learned absolute tables, T5 bias tables, DeBERTa's relative embeddings).
// Uses: base, encodings, scaling, analysis, relative, multimodal, models.
#include "pe/weights/byte_source.hpp"
#include "pe/weights/frequency_usage.hpp"
#include "pe/weights/ggml_blocks.hpp"
#include "pe/weights/gguf_weights.hpp"
#include "pe/weights/open_weights.hpp"
#include "pe/weights/position_tensors.hpp"
#include "pe/weights/qk_layout.hpp"
#include "pe/weights/ranged_file.hpp"
#include "pe/weights/ranged_reading.hpp"
#include "pe/weights/ranged_weights.hpp"
#include "pe/weights/safetensors.hpp"
#include "pe/weights/safetensors_checkpoint.hpp"
#include "pe/weights/stored_matrix.hpp"
#include "pe/weights/weights_error.hpp"
#include "pe/weights/weights_model.hpp"
