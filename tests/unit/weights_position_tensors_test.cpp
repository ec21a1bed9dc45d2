// The position tensors of each family, from tiny checkpoints written here with the tensor
// names transformers (and llama.cpp's converter) use and values chosen by hand: what is read
// must be those values, offset rows dropped, nothing else read, and every shape the
// configuration contradicts refused with a message naming the key, the tensor and both shapes.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "pe/models/config.hpp"
#include "pe/weights/byte_source.hpp"
#include "pe/weights/gguf_weights.hpp"
#include "pe/weights/open_weights.hpp"
#include "pe/weights/position_tensors.hpp"
#include "pe/weights/safetensors_checkpoint.hpp"
#include "pe/weights/weights_error.hpp"
#include "weights_test_writer.hpp"

namespace {

using namespace pe_test;

// Row r, column c of a test table: distinct, exact in binary16 and bfloat16 for small tables.
double cell(long long r, long long c, double base = 0.0) { return base + double(r) + double(c) / 8.0; }

std::vector<double> table_values(long long rows, long long cols, double base = 0.0) {
  std::vector<double> v;
  for (long long r = 0; r < rows; ++r)
    for (long long c = 0; c < cols; ++c) v.push_back(cell(r, c, base));
  return v;
}

SafetensorsWriter& add_table(SafetensorsWriter& w, const std::string& name, long long rows, long long cols, double base = 0.0,
                             const std::string& dtype = "F32") {
  return w.values(name, dtype, {std::uint64_t(rows), std::uint64_t(cols)}, table_values(rows, cols, base));
}

pe::SafetensorsCheckpoint checkpoint(const SafetensorsWriter& w) {
  return pe::SafetensorsCheckpoint::single(pe::memory_source(w.bytes(), "model.safetensors"));
}

void expect_table(const pe::TableF& t, long long rows, long long cols, long long first_row, double base = 0.0) {
  ASSERT_EQ(t.rows(), rows);
  ASSERT_EQ(t.cols(), cols);
  for (long long r = 0; r < rows; ++r)
    for (long long c = 0; c < cols; ++c) ASSERT_EQ(double(t(r, c)), cell(r + first_row, c, base)) << r << ", " << c;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The WeightsError reading gives, checked to mention every part.
void expect_refused(const pe::TensorSource& source, const pe::PositionTablesSpec& spec, std::initializer_list<std::string> parts) {
  try {
    pe::read_trained_positions(source, spec);
    ADD_FAILURE() << "accepted";
  } catch (const pe::WeightsError& e) {
    for (const auto& p : parts) EXPECT_TRUE(contains(e.what(), p)) << "message lacks \"" << p << "\": " << e.what();
  }
}

TEST(PositionTensors, Gpt2WpeIsReadAsItIsAndNothingElse) {
  SafetensorsWriter w;
  add_table(w, "wpe.weight", 6, 4);
  add_table(w, "wte.weight", 10, 4, 100.0);
  add_table(w, "h.0.attn.c_attn.weight", 4, 12, 200.0);
  const auto c = checkpoint(w);
  pe::PositionTablesSpec spec;
  spec.model_type = "gpt2";
  spec.positions = 6;
  spec.positions_key = "n_positions";
  spec.width = 4;
  spec.width_key = "n_embd";
  const pe::TrainedPositions t = pe::read_trained_positions(c, spec);
  ASSERT_TRUE(t.position_embeddings);
  EXPECT_EQ(t.position_embeddings->tensor, "wpe.weight");
  EXPECT_EQ(t.position_embeddings->dtype, "f32");
  EXPECT_EQ(t.position_embeddings->offset, 0);
  EXPECT_EQ(t.position_embeddings->shape, (std::vector<std::uint64_t>{6, 4}));
  expect_table(t.position_embeddings->values, 6, 4, 0);
  EXPECT_EQ(t.bytes_read, 6u * 4u * 4u);  // wpe's bytes only
  EXPECT_FALSE(t.encoder_position_embeddings || t.vision_position_embeddings || t.encoder_bias || t.decoder_bias || t.rel_embeddings);
}

TEST(PositionTensors, Gpt2UnderTransformerPrefixInHalfPrecision) {
  SafetensorsWriter w;
  add_table(w, "transformer.wpe.weight", 5, 3, 0.0, "F16");
  const pe::TrainedPositions t = pe::read_trained_positions(checkpoint(w), {});
  ASSERT_TRUE(t.position_embeddings);
  EXPECT_EQ(t.position_embeddings->dtype, "f16");
  expect_table(t.position_embeddings->values, 5, 3, 0);
}

TEST(PositionTensors, BertWithItsPrefixNotItsRelativeDistanceTable) {
  SafetensorsWriter w;
  add_table(w, "bert.embeddings.position_embeddings.weight", 8, 4, 0.0, "BF16");
  add_table(w, "bert.embeddings.word_embeddings.weight", 3, 4, 50.0);
  add_table(w, "bert.encoder.layer.0.attention.self.distance_embedding.weight", 15, 4, 60.0);
  pe::PositionTablesSpec spec;
  spec.positions = 8;
  const pe::TrainedPositions t = pe::read_trained_positions(checkpoint(w), spec);
  ASSERT_TRUE(t.position_embeddings);
  EXPECT_EQ(t.position_embeddings->tensor, "bert.embeddings.position_embeddings.weight");
  expect_table(t.position_embeddings->values, 8, 4, 0);
  EXPECT_EQ(t.bytes_read, 8u * 4u * 2u);
}

TEST(PositionTensors, RobertaDropsPaddingIdxPlusOneRows) {
  SafetensorsWriter w;
  add_table(w, "roberta.embeddings.position_embeddings.weight", 8, 4);
  pe::PositionTablesSpec spec;
  spec.model_type = "roberta";
  spec.positions = 6;  // RoBERTa's max_position_embeddings 514 is 512 positions + padding_idx 1 + 1
  spec.position_offset = 2;
  spec.position_offset_key = "pad_token_id + 1";
  const pe::TrainedPositions t = pe::read_trained_positions(checkpoint(w), spec);
  ASSERT_TRUE(t.position_embeddings);
  EXPECT_EQ(t.position_embeddings->offset, 2);
  expect_table(t.position_embeddings->values, 6, 4, 2);  // position 0 is stored row 2
  ASSERT_FALSE(t.notes.empty());
  EXPECT_TRUE(contains(t.notes.back().message, "first 2 rows")) << t.notes.back().message;
  EXPECT_EQ(t.bytes_read, 6u * 4u * 4u);
}

TEST(PositionTensors, OptDecoderTableWithItsOffsetOfTwo) {
  SafetensorsWriter w;
  add_table(w, "model.decoder.embed_positions.weight", 9, 2);
  add_table(w, "model.decoder.embed_tokens.weight", 3, 2, 10.0);
  pe::PositionTablesSpec spec;
  spec.positions = 7;
  spec.position_offset = 2;
  const pe::TrainedPositions t = pe::read_trained_positions(checkpoint(w), spec);
  ASSERT_TRUE(t.position_embeddings);
  EXPECT_FALSE(t.encoder_position_embeddings);
  expect_table(t.position_embeddings->values, 7, 2, 2);
}

TEST(PositionTensors, WhisperDecoderLearnedAndEncoderStored) {
  SafetensorsWriter w;
  add_table(w, "model.decoder.embed_positions.weight", 5, 4);
  add_table(w, "model.encoder.embed_positions.weight", 7, 4, 30.0);
  pe::PositionTablesSpec spec;
  spec.positions = 5;
  spec.positions_key = "max_target_positions";
  spec.encoder_positions = 7;
  const pe::TrainedPositions t = pe::read_trained_positions(checkpoint(w), spec);
  ASSERT_TRUE(t.position_embeddings);
  ASSERT_TRUE(t.encoder_position_embeddings);
  expect_table(t.position_embeddings->values, 5, 4, 0);
  expect_table(t.encoder_position_embeddings->values, 7, 4, 0, 30.0);
  EXPECT_EQ(t.encoder_position_embeddings->tensor, "model.encoder.embed_positions.weight");
}

TEST(PositionTensors, VitPatchTableIsAParameterWithALeadingOne) {
  SafetensorsWriter w;
  w.values("vit.embeddings.position_embeddings", "F32", {1, 5, 3}, table_values(5, 3));
  w.values("vit.embeddings.cls_token", "F32", {1, 1, 3}, {1, 2, 3});
  const pe::TrainedPositions t = pe::read_trained_positions(checkpoint(w), {});
  ASSERT_TRUE(t.position_embeddings);  // the only table: it is the model's
  EXPECT_FALSE(t.vision_position_embeddings);
  EXPECT_EQ(t.position_embeddings->shape, (std::vector<std::uint64_t>{1, 5, 3}));
  expect_table(t.position_embeddings->values, 5, 3, 0);
}

TEST(PositionTensors, ClipTextAndVisionTowers) {
  SafetensorsWriter w;
  add_table(w, "text_model.embeddings.position_embedding.weight", 4, 3);
  add_table(w, "vision_model.embeddings.position_embedding.weight", 5, 2, 40.0);
  const pe::TrainedPositions t = pe::read_trained_positions(checkpoint(w), {});
  ASSERT_TRUE(t.position_embeddings);
  ASSERT_TRUE(t.vision_position_embeddings);
  expect_table(t.position_embeddings->values, 4, 3, 0);
  expect_table(t.vision_position_embeddings->values, 5, 2, 0, 40.0);
}

// T5's bias [num_buckets, heads] per stack, block 0 only.
pe::PositionTablesSpec t5_spec(long long buckets, long long heads, long long layers) {
  pe::PositionTablesSpec s;
  s.model_type = "t5";
  s.num_buckets = buckets;
  s.heads = heads;
  s.max_distance = 128;
  s.encoder_layers = s.decoder_layers = layers;
  return s;
}

void expect_bias(const pe::T5BiasTable& b, long long buckets, long long heads, double base) {
  ASSERT_EQ(b.bias.rows(), buckets);
  ASSERT_EQ(b.bias.cols(), heads);
  EXPECT_FALSE(b.illustrative);
  for (long long r = 0; r < buckets; ++r)
    for (long long h = 0; h < heads; ++h) ASSERT_EQ(b.bias(r, h), cell(r, h, base));
}

TEST(PositionTensors, T5BothStacksOneTableEach) {
  SafetensorsWriter w;
  add_table(w, "encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", 8, 3);
  add_table(w, "decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", 8, 3, -20.0, "BF16");
  add_table(w, "encoder.block.0.layer.0.SelfAttention.q.weight", 4, 4, 70.0);
  add_table(w, "decoder.block.0.layer.1.EncDecAttention.k.weight", 4, 4, 80.0);
  const pe::TrainedPositions t = pe::read_trained_positions(checkpoint(w), t5_spec(8, 3, 2));
  ASSERT_TRUE(t.encoder_bias);
  ASSERT_TRUE(t.decoder_bias);
  EXPECT_FALSE(t.position_embeddings);
  const pe::T5StackTables& e = *t.encoder_bias;
  EXPECT_EQ(e.bias.sharing, pe::T5BiasSharing::PerStack);
  EXPECT_EQ(e.bias.layers, 2);
  ASSERT_EQ(e.bias.tables.size(), 1u);
  expect_bias(e.bias.tables[0], 8, 3, 0.0);
  EXPECT_EQ(e.params.num_buckets, 8);
  EXPECT_EQ(e.params.max_distance, 128);
  EXPECT_FALSE(e.params.causal);
  EXPECT_TRUE(t.decoder_bias->params.causal);
  EXPECT_EQ(t.decoder_bias->dtype, "bf16");
  expect_bias(t.decoder_bias->bias.tables[0], 8, 3, -20.0);
  EXPECT_NO_THROW(pe::require_t5_stack(e.bias, e.params));  // the relative module takes it as it is
  EXPECT_EQ(t.bytes_read, 8u * 3u * 4u + 8u * 3u * 2u);
}

TEST(PositionTensors, T5EncoderModelHasNoDecoderStack) {
  SafetensorsWriter w;
  add_table(w, "encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", 6, 2);
  const pe::TrainedPositions t = pe::read_trained_positions(checkpoint(w), t5_spec(6, 2, 24));
  ASSERT_TRUE(t.encoder_bias);
  EXPECT_FALSE(t.decoder_bias);
  EXPECT_EQ(t.encoder_bias->bias.layers, 24);
}

TEST(PositionTensors, Umt5HasATablePerLayer) {
  SafetensorsWriter w;
  for (int l = 0; l < 3; ++l) {
    add_table(w, "encoder.block." + std::to_string(l) + ".layer.0.SelfAttention.relative_attention_bias.weight", 4, 2, 10.0 * l);
    add_table(w, "decoder.block." + std::to_string(l) + ".layer.0.SelfAttention.relative_attention_bias.weight", 4, 2, -10.0 * l);
  }
  pe::PositionTablesSpec spec = t5_spec(4, 2, 3);
  spec.model_type = "umt5";
  spec.bias_per_layer = true;
  const pe::TrainedPositions t = pe::read_trained_positions(checkpoint(w), spec);
  ASSERT_TRUE(t.encoder_bias && t.decoder_bias);
  for (const auto* s : {&*t.encoder_bias, &*t.decoder_bias}) {
    EXPECT_EQ(s->bias.sharing, pe::T5BiasSharing::PerLayer);
    EXPECT_EQ(s->bias.layers, 3);
    ASSERT_EQ(s->bias.tables.size(), 3u);
    EXPECT_NO_THROW(pe::require_t5_stack(s->bias, s->params));
  }
  for (int l = 0; l < 3; ++l) {
    expect_bias(t.encoder_bias->bias.table_for_layer(l), 4, 2, 10.0 * l);
    expect_bias(t.decoder_bias->bias.table_for_layer(l), 4, 2, -10.0 * l);
  }
  EXPECT_EQ(t.encoder_bias->tensors[2], "encoder.block.2.layer.0.SelfAttention.relative_attention_bias.weight");
}

TEST(PositionTensors, Umt5MissingALayersTableIsNamed) {
  SafetensorsWriter w;
  add_table(w, "encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", 4, 2);
  add_table(w, "encoder.block.2.layer.0.SelfAttention.relative_attention_bias.weight", 4, 2);
  pe::PositionTablesSpec spec = t5_spec(4, 2, 3);
  spec.model_type = "umt5";
  spec.bias_per_layer = true;
  expect_refused(checkpoint(w), spec, {"model.safetensors", "block 1", "umt5", "per layer"});
}

TEST(PositionTensors, T5ExtraBlocksAreNotedAndNotRead) {
  SafetensorsWriter w;
  add_table(w, "encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", 4, 2);
  add_table(w, "encoder.block.1.layer.0.SelfAttention.relative_attention_bias.weight", 4, 2, 5.0);
  const pe::TrainedPositions t = pe::read_trained_positions(checkpoint(w), t5_spec(4, 2, 2));
  ASSERT_EQ(t.encoder_bias->bias.tables.size(), 1u);
  expect_bias(t.encoder_bias->bias.tables[0], 4, 2, 0.0);
  ASSERT_FALSE(t.notes.empty());
  EXPECT_TRUE(contains(t.notes[0].message, "block 0")) << t.notes[0].message;
}

TEST(PositionTensors, LongT5LocalAttentionTableButNotItsGlobalOne) {
  SafetensorsWriter w;
  add_table(w, "encoder.block.0.layer.0.TransientGlobalSelfAttention.relative_attention_bias.weight", 4, 2);
  add_table(w, "encoder.block.0.layer.0.TransientGlobalSelfAttention.global_relative_attention_bias.weight", 4, 2, 9.0);
  const pe::TrainedPositions t = pe::read_trained_positions(checkpoint(w), t5_spec(4, 2, 1));
  ASSERT_TRUE(t.encoder_bias);
  expect_bias(t.encoder_bias->bias.tables[0], 4, 2, 0.0);
}

TEST(PositionTensors, DebertaRelEmbeddingsThroughTheEncodersLayerNorm) {
  const long long span = 3, hidden = 4;
  SafetensorsWriter w;
  add_table(w, "deberta.encoder.rel_embeddings.weight", 2 * span, hidden);
  const std::vector<double> gamma = {1.0, 2.0, 0.5, -1.0}, beta = {0.0, 0.25, -0.5, 1.0};
  w.values("deberta.encoder.LayerNorm.weight", "F32", {4}, gamma).values("deberta.encoder.LayerNorm.bias", "F32", {4}, beta);
  add_table(w, "deberta.embeddings.word_embeddings.weight", 2, hidden, 90.0);
  pe::PositionTablesSpec spec;
  spec.model_type = "deberta-v2";
  spec.position_buckets = span;
  spec.width = hidden;
  spec.rel_layer_norm = true;
  spec.layer_norm_eps = 1e-7;
  const pe::TrainedPositions t = pe::read_trained_positions(checkpoint(w), spec);
  ASSERT_TRUE(t.rel_embeddings);
  const pe::DebertaRelativeTable& d = *t.rel_embeddings;
  EXPECT_EQ(d.att_span, span);
  EXPECT_TRUE(d.layer_norm);
  EXPECT_EQ(d.layer_norm_tensors, "deberta.encoder.LayerNorm.weight, deberta.encoder.LayerNorm.bias");
  // Each row of 4 values r + c/8: mean r + 3/16, biased variance Σ (c/8 − 3/16)² / 4 = 5/256.
  for (long long r = 0; r < 2 * span; ++r)
    for (long long c = 0; c < hidden; ++c) {
      const double x = cell(r, c), mean = double(r) + 3.0 / 16.0, var = 5.0 / 256.0;
      const double expected = (x - mean) / std::sqrt(var + 1e-7) * gamma[c] + beta[c];
      EXPECT_NEAR(d.values(r, c), expected, 1e-5) << r << ", " << c;
    }
  // Without norm_rel_ebd the table is as stored and the norm's tensors are not read.
  spec.rel_layer_norm = false;
  const pe::TrainedPositions raw = pe::read_trained_positions(checkpoint(w), spec);
  EXPECT_FALSE(raw.rel_embeddings->layer_norm);
  expect_table(raw.rel_embeddings->values, 2 * span, hidden, 0);
  EXPECT_EQ(raw.bytes_read, 6u * 4u * 4u);
}

TEST(PositionTensors, ShapesTheConfigContradictsAreRefusedByKeyAndTensor) {
  {
    SafetensorsWriter w;
    add_table(w, "wpe.weight", 4, 3);
    pe::PositionTablesSpec s;
    s.positions = 6;
    s.positions_key = "n_positions";
    expect_refused(checkpoint(w), s, {"model.safetensors", "tensor wpe.weight", "[4, 3]", "config.json's n_positions = 6", "needs [6, 3]"});
    s.positions = 4;
    s.width = 8;
    s.width_key = "n_embd";
    expect_refused(checkpoint(w), s, {"tensor wpe.weight", "[4, 3]", "n_embd = 8", "[4, 8]"});
  }
  {
    SafetensorsWriter w;
    add_table(w, "roberta.embeddings.position_embeddings.weight", 7, 2);
    pe::PositionTablesSpec s;
    s.positions = 6;
    s.position_offset = 2;
    s.position_offset_key = "pad_token_id + 1";
    expect_refused(checkpoint(w), s, {"tensor roberta.embeddings.position_embeddings.weight", "[7, 2]", "max_position_embeddings = 6",
                                      "(+ 2 offset rows: pad_token_id + 1)", "needs [8, 2]"});
  }
  {
    SafetensorsWriter w;
    add_table(w, "encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", 8, 3);
    pe::PositionTablesSpec s = t5_spec(16, 3, 2);
    expect_refused(checkpoint(w), s, {"tensor encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", "[8, 3]",
                                      "relative_attention_num_buckets = 16", "needs [16, 3]"});
    s = t5_spec(8, 4, 2);
    expect_refused(checkpoint(w), s, {"[8, 3]", "num_heads = 4", "needs [8, 4]"});
  }
  {
    SafetensorsWriter w;
    add_table(w, "encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", 8, 3);
    add_table(w, "decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", 8, 2);
    expect_refused(checkpoint(w), {}, {"tensor decoder.block.0", "[8, 2]", "8 buckets × 3 heads of the other"});
  }
  {
    SafetensorsWriter w;
    add_table(w, "deberta.encoder.rel_embeddings.weight", 6, 2);
    pe::PositionTablesSpec s;
    s.position_buckets = 4;
    expect_refused(checkpoint(w), s, {"tensor deberta.encoder.rel_embeddings.weight", "[6, 2]", "position_buckets = 4", "needs 2 · 4: [8, 2]"});
    s.position_buckets = 3;
    s.rel_layer_norm = true;
    expect_refused(checkpoint(w), s, {"tensor deberta.encoder.LayerNorm.weight", "missing", "norm_rel_ebd"});
  }
}

TEST(PositionTensors, ARopeModelHasNoneAndCancelStops) {
  SafetensorsWriter w;
  add_table(w, "model.layers.0.self_attn.q_proj.weight", 4, 4);
  EXPECT_TRUE(pe::read_trained_positions(checkpoint(w), {}).empty());
  SafetensorsWriter g;
  add_table(g, "wpe.weight", 4, 4);
  EXPECT_THROW(pe::read_trained_positions(checkpoint(g), {}, [] { return false; }), pe::WeightsCancelled);
}

}  // namespace

// ---- what the published configs imply (tests/data/configs, as their model cards publish them)

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

pe::PositionTablesSpec spec_of(const std::string& name) {
  const std::string text = read_text(std::string(PE_SOURCE_DIR) + "/tests/data/configs/" + name + ".json");
  return pe::position_tables_spec(pe::parse_hf_config_diagnosed(text, name + ".json").encoding, text, name + ".json");
}

TEST(PositionTablesSpec, PublishedConfigsUnderTheirOwnKeyNames) {
  const pe::PositionTablesSpec gpt2 = spec_of("gpt2");
  EXPECT_EQ(gpt2.positions, 1024);
  EXPECT_EQ(gpt2.positions_key, "n_positions");
  EXPECT_EQ(gpt2.position_offset, 0);
  EXPECT_EQ(gpt2.width, 768);
  EXPECT_EQ(gpt2.width_key, "n_embd");

  const pe::PositionTablesSpec roberta = spec_of("roberta-base");
  EXPECT_EQ(roberta.positions, 512);  // 514 rows, padding_idx 1
  EXPECT_EQ(roberta.position_offset, 2);
  EXPECT_EQ(roberta.position_offset_key, "pad_token_id + 1");

  const pe::PositionTablesSpec opt = spec_of("opt-125m");
  EXPECT_EQ(opt.positions, 2048);
  EXPECT_EQ(opt.position_offset, 2);

  const pe::PositionTablesSpec whisper = spec_of("whisper-small");
  EXPECT_EQ(whisper.positions, 448);
  EXPECT_EQ(whisper.positions_key, "max_target_positions");
  EXPECT_EQ(whisper.encoder_positions, 1500);
  EXPECT_EQ(whisper.encoder_positions_key, "max_source_positions");
  EXPECT_TRUE(whisper.encoder_sinusoidal);
  EXPECT_FALSE(whisper.sinusoidal);

  const pe::PositionTablesSpec t5 = spec_of("t5-base");
  EXPECT_EQ(t5.positions, 0);
  EXPECT_EQ(t5.num_buckets, 32);
  EXPECT_EQ(t5.num_buckets_key, "relative_attention_num_buckets");
  EXPECT_EQ(t5.max_distance, 128);  // t5-base's config predates the key: T5Config's default
  EXPECT_EQ(t5.heads, 12);
  EXPECT_EQ(t5.heads_key, "num_heads");
  EXPECT_EQ(t5.encoder_layers, 12);
  EXPECT_EQ(t5.decoder_layers, 12);
  EXPECT_FALSE(t5.bias_per_layer);

  const pe::PositionTablesSpec flan = spec_of("flan-t5-xxl");
  EXPECT_EQ(flan.heads, 64);
  EXPECT_EQ(flan.encoder_layers, 24);

  const pe::PositionTablesSpec deberta = spec_of("deberta-v3-base");
  EXPECT_EQ(deberta.position_buckets, 256);
  EXPECT_EQ(deberta.max_relative_positions, 512);
  EXPECT_TRUE(deberta.rel_layer_norm);
  EXPECT_DOUBLE_EQ(deberta.layer_norm_eps, 1e-7);
  EXPECT_EQ(deberta.positions, 0);  // position_biased_input false: no absolute table used

  const pe::PositionTablesSpec bert = spec_of("bert-base-uncased");
  EXPECT_EQ(bert.positions, 512);
  EXPECT_FALSE(bert.absolute_table_unused);
}

TEST(PositionTablesSpec, BertRelativeKeyDoesNotReadItsUnusedAbsoluteTable) {
  const std::string text = R"({"model_type": "bert", "hidden_size": 8, "num_attention_heads": 2, "num_hidden_layers": 1,
                               "max_position_embeddings": 4, "position_embedding_type": "relative_key"})";
  const pe::PositionTablesSpec spec = pe::position_tables_spec(pe::parse_hf_config_diagnosed(text).encoding, text);
  EXPECT_TRUE(spec.absolute_table_unused);
  SafetensorsWriter w;
  add_table(w, "bert.embeddings.position_embeddings.weight", 4, 8);
  const pe::TrainedPositions t = pe::read_trained_positions(checkpoint(w), spec);
  EXPECT_TRUE(t.empty());
  ASSERT_FALSE(t.notes.empty());
  EXPECT_TRUE(contains(t.notes[0].message, "relative_key")) << t.notes[0].message;
}

}  // namespace

// ---- GGUF: llama.cpp's names (position_embd, attn_rel_b), architectures without RoPE

namespace {

Bytes f32_bytes(const std::vector<double>& v) {
  Bytes b;
  for (double x : v) put_f32(b, static_cast<float>(x));
  return b;
}

// A rows × cols table as ggml stores it: ne = [cols, rows], ne[0] fastest.
GgufBuilder& gguf_table(GgufBuilder& g, const std::string& name, long long rows, long long cols, double base = 0.0) {
  const Bytes data = f32_bytes(table_values(rows, cols, base));
  return g.tensor(name, {cols, rows}, 0, data.size(), data);
}

pe::OpenedWeights open_gguf(const GgufBuilder& g, const std::string& name = "model.gguf") {
  return pe::open_gguf_weights(pe::memory_source(g.bytes(), name));
}

TEST(PositionTensorsGguf, Gpt2PositionEmbd) {
  GgufBuilder g;
  g.str("general.architecture", "gpt2").u32("gpt2.context_length", 6).u32("gpt2.embedding_length", 4).u32("gpt2.block_count", 1)
      .u32("gpt2.attention.head_count", 2);
  gguf_table(g, "token_embd.weight", 3, 4, 100.0);
  gguf_table(g, "position_embd.weight", 6, 4);
  const pe::OpenedWeights o = open_gguf(g);
  EXPECT_FALSE(o.rotary());
  EXPECT_EQ(o.encoding.family, pe::PositionEncodingFamily::LearnedAbsolute);
  EXPECT_EQ(o.position_spec.positions, 6);
  EXPECT_EQ(o.position_spec.positions_key, "gpt2.context_length");
  const pe::TrainedPositions t = pe::read_trained_positions(*o.tensors, o.position_spec);
  ASSERT_TRUE(t.position_embeddings);
  EXPECT_EQ(t.position_embeddings->tensor, "position_embd.weight");
  EXPECT_EQ(t.position_embeddings->shape, (std::vector<std::uint64_t>{4, 6}));
  expect_table(t.position_embeddings->values, 6, 4, 0);
  EXPECT_EQ(t.bytes_read, 6u * 4u * 4u);
}

TEST(PositionTensorsGguf, BertTableShorterThanTheContextIsRefused) {
  GgufBuilder g;
  g.str("general.architecture", "bert").u32("bert.context_length", 8).u32("bert.embedding_length", 4).u32("bert.block_count", 1)
      .u32("bert.attention.head_count", 2);
  gguf_table(g, "position_embd.weight", 6, 4);
  const pe::OpenedWeights o = open_gguf(g, "bert.gguf");
  EXPECT_FALSE(o.rotary());  // llama.cpp lists bert among the NEOX models, but its graph adds position_embd
  expect_refused(*o.tensors, o.position_spec, {"bert.gguf", "tensor position_embd.weight", "ne [4, 6]", "bert.context_length = 8", "needs ne [4, 8]"});
}

TEST(PositionTensorsGguf, T5EncoderAndDecoderBias) {
  GgufBuilder g;
  g.str("general.architecture", "t5").u32("t5.context_length", 512).u32("t5.embedding_length", 8).u32("t5.block_count", 2)
      .u32("t5.attention.head_count", 3).u32("t5.attention.relative_buckets_count", 8);
  gguf_table(g, "enc.blk.0.attn_rel_b.weight", 8, 3);
  gguf_table(g, "dec.blk.0.attn_rel_b.weight", 8, 3, -20.0);
  gguf_table(g, "enc.blk.0.attn_q.weight", 8, 8, 50.0);
  const pe::OpenedWeights o = open_gguf(g, "t5.gguf");
  EXPECT_EQ(o.encoding.family, pe::PositionEncodingFamily::T5RelativeBias);
  const pe::TrainedPositions t = pe::read_trained_positions(*o.tensors, o.position_spec);
  ASSERT_TRUE(t.encoder_bias && t.decoder_bias);
  expect_bias(t.encoder_bias->bias.tables[0], 8, 3, 0.0);
  expect_bias(t.decoder_bias->bias.tables[0], 8, 3, -20.0);
  EXPECT_EQ(t.encoder_bias->params.max_distance, 128);  // llama.cpp's fixed maximum distance
  EXPECT_EQ(t.encoder_bias->bias.layers, 2);
  EXPECT_EQ(t.bytes_read, 2u * 8u * 3u * 4u);
  // A bucket count the metadata contradicts.
  GgufBuilder bad;
  bad.str("general.architecture", "t5encoder").u32("t5encoder.context_length", 512).u32("t5encoder.block_count", 1)
      .u32("t5encoder.attention.head_count", 3).u32("t5encoder.attention.relative_buckets_count", 32);
  gguf_table(bad, "enc.blk.0.attn_rel_b.weight", 8, 3);
  const pe::OpenedWeights b = open_gguf(bad, "enc.gguf");
  expect_refused(*b.tensors, b.position_spec, {"enc.gguf", "tensor enc.blk.0.attn_rel_b.weight", "ne [3, 8]",
                                               "t5encoder.attention.relative_buckets_count = 32", "needs ne [3, 32]"});
}

TEST(PositionTensorsGguf, UnknownArchitectureStillRefusedAsBefore) {
  GgufBuilder g;
  g.str("general.architecture", "no-such-arch").u32("no-such-arch.block_count", 1);
  EXPECT_THROW(open_gguf(g), pe::WeightsError);
}

}  // namespace

namespace {

TEST(PositionTensorsOpen, AGpt2CheckpointOpensWithoutRotationAndItsSpec) {
  SafetensorsWriter w;
  add_table(w, "wpe.weight", 6, 4);
  const std::string config = R"({"model_type": "gpt2", "n_positions": 6, "n_embd": 4, "n_head": 2, "n_layer": 1})";
  const pe::OpenedWeights o = pe::open_hf_weights(checkpoint(w), config, "gpt2/config.json");
  EXPECT_FALSE(o.rotary());
  EXPECT_EQ(o.encoding.family, pe::PositionEncodingFamily::LearnedAbsolute);
  EXPECT_EQ(o.model.shape.num_hidden_layers, 0);  // no q/k model: nothing rotates
  EXPECT_EQ(o.position_spec.config_name, "gpt2/config.json");
  EXPECT_EQ(o.position_spec.positions, 6);
  const pe::TrainedPositions t = pe::read_trained_positions(*o.tensors, o.position_spec);
  ASSERT_TRUE(t.position_embeddings);
  expect_table(t.position_embeddings->values, 6, 4, 0);
  // The same table against a config asking for more positions: the key in the config's words.
  const std::string longer = R"({"model_type": "gpt2", "n_positions": 8, "n_embd": 4, "n_head": 2, "n_layer": 1})";
  const pe::OpenedWeights l = pe::open_hf_weights(checkpoint(w), longer, "gpt2/config.json");
  expect_refused(*l.tensors, l.position_spec, {"tensor wpe.weight", "[6, 4]", "gpt2/config.json's n_positions = 8", "needs [8, 4]"});
}

}  // namespace
