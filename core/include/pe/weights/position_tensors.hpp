#pragma once
// What training made of a model's positions, read from its weights (issue 33): the learned
// absolute tables, T5's bucketed bias tables and DeBERTa's relative embeddings — only those
// tensors' bytes are read, through the same TensorSource / StoredMatrix path as the q/k
// measure (safetensors single or sharded, GGUF).
//
// Tensor names, Hugging Face (any prefix before them: "bert.", "roberta.", "model.", ...):
//  - learned absolute, the model's only (or decoder's) table:
//      wpe.weight                                     GPT2Model.wpe (also GPT-Neo, GPTBigCode, ImageGPT)
//      embeddings.position_embeddings.weight          BertEmbeddings (BERT, RoBERTa, XLM-R, ELECTRA, CamemBERT,
//                                                     DistilBERT, DeBERTa with position_biased_input)
//      embeddings.position_embedding.weight           CLIP / SigLIP text towers (CLIPTextEmbeddings)
//      decoder.embed_positions.weight                 OPT, BART, mBART (LearnedPositionalEmbedding, offset 2
//                                                     rows), Whisper's decoder (no offset)
//      embed_positions.weight                         decoder-only models keeping it at the top (BioGPT)
//  - the encoder's table of an encoder–decoder model: encoder.embed_positions.weight (BART and
//    mBART learned, offset 2; Whisper's and Marian's fixed sinusoids, stored);
//  - a vision tower's table, one row per patch plus the class token:
//      vision_model.embeddings.position_embedding.weight   CLIP / SigLIP vision towers
//      embeddings.position_embeddings                      ViT (a Parameter [1, patches + 1, hidden])
//    (the only table of a vision-only checkpoint is its position_embeddings);
//  - T5's bias tables, [num_buckets, heads] (nn.Embedding(num_buckets, n_heads)):
//      {encoder|decoder}.block.N.layer.0.SelfAttention.relative_attention_bias.weight
//    (LongT5's encoder: LocalSelfAttention / TransientGlobalSelfAttention) — block 0 only for
//    T5, mT5, LongT5, Switch; every block for UMT5;
//  - DeBERTa's encoder.rel_embeddings.weight [2·att_span, hidden] and, when the config's
//    norm_rel_ebd names layer_norm, encoder.LayerNorm.{weight,bias}: DebertaV2Encoder's
//    get_rel_embedding applies that LayerNorm to the table before attention uses it, so the
//    table returned here is the normalised one (modeling_deberta_v2.py).
// GGUF (llama.cpp's names, gguf-py constants.py / tensor_mapping.py): position_embd.weight
// (gpt2, starcoder, bert — llama.cpp's converter has already cut RoBERTa's padding_idx + 1
// offset rows: XLMRobertaModel.modify_tensors), {enc|dec}.blk.N.attn_rel_b.weight (t5,
// t5encoder; ne = [heads, buckets], read as buckets × heads like Hugging Face's).
#include "pe/weights/module_guard.hpp"
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "pe/base/types.hpp"
#include "pe/models/diagnostics.hpp"
#include "pe/models/gguf.hpp"
#include "pe/models/position_encoding.hpp"
#include "pe/relative/t5_bias.hpp"
#include "pe/weights/stored_matrix.hpp"

namespace pe {

// What the configuration says the tensors must hold. 0 / "" means "not known": the tensor's
// own shape is taken and nothing is checked against it. Each *_key is the config key the
// number was read under (GPT-2's n_positions, T5's num_heads), named in messages.
struct PositionTablesSpec {
  std::string config_name = "config.json";  // the file messages name
  std::string model_type;
  // Learned absolute tables: positions each stack encodes (without offset rows) and the rows
  // stored before position 0 (OPT / BART 2, RoBERTa padding_idx + 1; GGUF 0: cut by the converter).
  long long positions = 0;
  std::string positions_key = "max_position_embeddings";
  long long encoder_positions = 0;
  std::string encoder_positions_key = "max_source_positions";
  long long position_offset = 0;
  std::string position_offset_key = "position_offset";
  long long width = 0;  // the tables' columns (hidden_size; ELECTRA's embedding_size)
  std::string width_key = "hidden_size";
  // BERT with position_embedding_type relative_key(_query) keeps embeddings.position_embeddings
  // in its checkpoint but never adds it (BertEmbeddings adds it only for "absolute"): it is
  // not read, and a note says why. The distance_embedding of each layer is what it trains.
  // Tables that hold fixed sinusoids, stored but not trained (Marian's both; Whisper's encoder):
  // read like the others, with a note.
  bool sinusoidal = false, encoder_sinusoidal = false;
  bool absolute_table_unused = false;
  std::string absolute_table_unused_why;
  // T5 family.
  long long num_buckets = 0;
  std::string num_buckets_key = "relative_attention_num_buckets";
  long long max_distance = 128;  // relative_attention_max_distance (T5Config's default)
  long long heads = 0;
  std::string heads_key = "num_heads";
  long long encoder_layers = 0, decoder_layers = 0;  // num_layers, num_decoder_layers
  bool bias_per_layer = false;  // UMT5
  // DeBERTa: rows = 2 · position_buckets (or 2 · max_relative_positions without buckets).
  long long position_buckets = 0;
  long long max_relative_positions = 0;
  bool rel_layer_norm = false;   // norm_rel_ebd contains "layer_norm"
  double layer_norm_eps = 1e-7;  // DebertaV2Config's default
};

// One learned absolute table, offset rows dropped: values(p, j) is position p's dimension j.
struct LearnedPositionTable {
  std::string tensor, file, dtype;
  std::vector<std::uint64_t> shape;  // as stored (safetensors' order; GGUF's ne[0] first)
  long long offset = 0;              // rows dropped before position 0
  TableF values;                     // positions × dims
};

// One stack's T5 bias tables and where they came from (tensor names, one per table).
struct T5StackTables {
  T5StackBias bias;
  T5BucketParams params;  // num_buckets, max_distance, causal (the decoder)
  std::vector<std::string> tensors;
  std::string file, dtype;
};

// DeBERTa's relative embeddings: rows × hidden, row r for bucket r − att_span.
struct DebertaRelativeTable {
  std::string tensor, file, dtype;
  long long att_span = 0;
  bool layer_norm = false;  // values are after the encoder's LayerNorm
  std::string layer_norm_tensors;  // "encoder.LayerNorm.weight, encoder.LayerNorm.bias"
  TableF values;
};

struct TrainedPositions {
  std::string source;  // TensorSource::description()
  std::optional<LearnedPositionTable> position_embeddings;          // the only (or decoder's) table
  std::optional<LearnedPositionTable> encoder_position_embeddings;  // an encoder–decoder model's encoder
  std::optional<LearnedPositionTable> vision_position_embeddings;   // a vision tower beside a text one
  std::optional<T5StackTables> encoder_bias, decoder_bias;
  std::optional<DebertaRelativeTable> rel_embeddings;
  std::uint64_t bytes_read = 0;
  std::vector<Diagnostic> notes;  // offsets dropped, norms applied, tensors ignored

  bool empty() const {
    return !position_embeddings && !encoder_position_embeddings && !vision_position_embeddings && !encoder_bias && !decoder_bias &&
           !rel_embeddings;
  }
};

// Which tensors hold the positions, their shapes checked against the spec: no weight bytes
// are read. Throws WeightsError naming the file, the tensor, the config key and both shapes:
// a learned table with fewer rows than positions + offset, or another width; a bias table
// that is not num_buckets × heads, or a stack whose tables disagree; a UMT5 stack missing a
// layer's table; DeBERTa's table not 2·att_span rows. `matrices` lists what
// read_position_tensors will read (a ranged file loads their byte ranges first).
struct PositionTensorPlan {
  std::string source;
  PositionTablesSpec spec;
  struct Table {
    std::string role;  // "position_embeddings", "encoder_position_embeddings", "vision_position_embeddings",
                       // "encoder_bias", "decoder_bias", "rel_embeddings", "rel_layer_norm"
    long long layer = 0;  // T5 tables: the block
    StoredMatrix matrix;
    std::vector<std::uint64_t> shape;
  };
  std::vector<Table> tables;
  std::vector<Diagnostic> notes;
};
PositionTensorPlan plan_position_tensors(const TensorSource& source, const PositionTablesSpec& spec);

// Reads the planned tensors (the rows of each, decoded as stored; GGUF blocks dequantised).
// `keep_going` is asked after each tensor: false stops with WeightsCancelled.
TrainedPositions read_position_tensors(const PositionTensorPlan& plan, const std::function<bool()>& keep_going = {});

// plan + read.
TrainedPositions read_trained_positions(const TensorSource& source, const PositionTablesSpec& spec,
                                        const std::function<bool()>& keep_going = {});

// The spec a config.json implies, from its family (pe/models/position_encoding.hpp) with the
// key names its config class uses (GPT-2's n_positions, T5's num_heads, Whisper's
// max_source_positions), plus what that descriptor does not carry and DeBERTa needs from the
// text: norm_rel_ebd ("layer_norm" in its "|"-separated list, lower-cased as DebertaV2Encoder
// does) and layer_norm_eps (DebertaV2Config's default 1e−7).
PositionTablesSpec position_tables_spec(const PositionEncodingInfo& info, const std::string& config_json = "",
                                        const std::string& config_name = "config.json");

// A GGUF file's positional encoding from its architecture, as llama.cpp's graphs apply it:
// gpt2, starcoder and bert add the learned position_embd rows (llm_build_gpt2,
// llm_build_starcoder, llm_build_bert); t5 / t5encoder add attn_rel_b through T5's buckets;
// bloom, mpt, jina-bert-v2 and refact use ALiBi; an architecture with a rope mode rotates;
// the rest (mamba, rwkv, ...) have no positional encoding.
PositionEncodingInfo gguf_position_encoding(const GgufFile& file);

// A GGUF file's spec from its metadata ({arch}.context_length, .embedding_length,
// .attention.head_count, .attention.relative_buckets_count, .block_count,
// .decoder_block_count; llama.cpp fixes T5's max_distance at 128: llama-model.cpp's
// relative position bucket). Offsets are 0 (the converter cut them).
PositionTablesSpec gguf_position_tables_spec(const GgufFile& file);

}  // namespace pe
