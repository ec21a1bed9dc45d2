#pragma once
// `pe-viz weights`: which rotary frequencies a trained model's q/k weights use (issue 26).
// Reads only the q and k projections (memory-mapped safetensors or GGUF) and prints, per
// layer, the share of the q·k weight w_j = Σ_h ‖q_h,j‖·‖k_g(h),j‖ that falls in the fastest,
// middle and slowest quarter of the rotary pairs, and the pairs whose wavelength exceeds the
// training context; --json the per-head, per-pair norms; --csv FILE one row per (layer, kind,
// head, pair).
//
//   pe-viz weights --model path/to/model-folder
//   pe-viz weights --model meta-llama/Llama-3.1-8B --json > usage.json   (the local HF cache, offline)
//   pe-viz weights --gguf model.Q4_K_M.gguf --csv usage.csv --layer 12
//
// Exit codes: 0 read, 1 the weights could not be read (the message names file and tensor),
// 2 bad command line.
#include <iosfwd>
#include <string>

#include "state/weights_usage.hpp"

namespace app {

// The documents the command prints (for tests). For a model that rotates: the frequency usage
// (weights_text / weights_json); for one that does not (usage.rotary false): its trained
// position tensors (positions_text / positions_json, cli/weights_positions.cpp), never a
// frequency usage. JSON keys of the latter: source, config, model_type, position_encoding
// (encoder_position_encoding for encoder–decoder models), position_embeddings
// [position][dim] (offset rows dropped, said in notes), encoder_position_embeddings,
// vision_position_embeddings, relative_attention_bias {"encoder": [bucket][head], "decoder":
// [bucket][head]} (a stack the model lacks is absent; UMT5: layer 0's table, and every
// layer's in relative_attention_bias_per_layer {"encoder": [layer][bucket][head], ...}),
// relative_attention_num_buckets, relative_attention_max_distance, rel_embeddings [row][dim]
// (DeBERTa; row r is bucket r − rel_embeddings_att_span; rel_embeddings_layer_norm), tensors
// [{key, tensor, file, dtype, shape, offset_rows}], analysis {table, similarity_stride,
// similarity_by_distance, principal_components {variance, variance_share, scores
// [position][component]}, spectra {frequency, dominant_frequency [dim]}}, bytes_read, notes.
std::string weights_text(const WeightsUsage& usage, bool per_head);
std::string weights_json(const WeightsUsage& usage);
std::string positions_text(const WeightsUsage& usage);
std::string positions_json(const WeightsUsage& usage);

// argv[0] is "weights". Writes to std::cout / std::cerr.
int run_weights_command(int argc, char** argv);
int run_weights_command(int argc, char** argv, std::ostream& out, std::ostream& err);

}  // namespace app
