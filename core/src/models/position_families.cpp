// The model types whose positions are not (only) RoPE, with the keys each config class reads
// and its defaults. Each number is the class's __init__ default in huggingface/transformers
// src/transformers/models/<model>/configuration_<model>.py (read at main, v5 era; the
// deprecated Transformer-XL under models/deprecated/transfo_xl), under the attribute names
// the class keeps — its attribute_map lets config.json use the common names as well
// (GPT2Config: hidden_size → n_embd, max_position_embeddings → n_positions, ...).
// How each family is applied is the modeling file named beside it.
#include "position_families.hpp"

#include <string>
#include <tuple>

namespace pe::detail {
namespace {

using F = PositionEncodingFamily;
using R = FamilyRule;

ClassKey key(const char* name, std::optional<long long> fallback) { return ClassKey{{name, nullptr, nullptr}, fallback}; }
ClassKey key(const char* name, const char* alias, std::optional<long long> fallback) {
  return ClassKey{{name, alias, nullptr}, fallback};
}
const ClassKey kNone{};
FamilyParameter param(const char* name, ClassKey k, bool boolean = false) { return FamilyParameter{name, k, boolean}; }

constexpr const char* kLearnedShared = "one table for the whole model, added to the token embeddings before the first layer";
constexpr const char* kT5Shared =
    "one bias table per stack (block 0's relative_attention_bias), shared by every layer of that stack";
constexpr const char* kBertShared =
    "absolute: one table added before the first layer; relative_key / relative_key_query: every layer has its own "
    "distance_embedding";
constexpr const char* kT5Modeling =
    "T5Attention._relative_position_bucket + compute_bias: bidirectional in the encoder, causal in the decoder "
    "(modeling_t5.py)";

// A BERT-style encoder (absolute table, or position_embedding_type relative keys).
FamilyEntry bert_like(const char* type, const char* config_class, const char* modeling, long long hidden, long long heads,
                      long long layers, long long positions, bool offset_from_padding, long long pad_default) {
  FamilyEntry e{type, R::PositionEmbeddingType, F::LearnedAbsolute, std::nullopt, config_class, modeling,
                key("hidden_size", hidden), key("num_attention_heads", heads), key("num_hidden_layers", layers), kNone,
                key("max_position_embeddings", positions), kNone, kNone, 0, offset_from_padding, false, {}, kBertShared};
  if (offset_from_padding) e.parameters[0] = param("pad_token_id", key("pad_token_id", pad_default));
  return e;
}

// The T5 family: d_model, d_kv, num_heads, num_layers (num_decoder_layers defaults to it).
FamilyEntry t5_like(const char* type, const char* config_class, long long d_model, long long heads, long long layers,
                    const char* shared) {
  return FamilyEntry{type, R::Fixed, F::T5RelativeBias, F::T5RelativeBias, config_class, kT5Modeling,
                     key("d_model", "hidden_size", d_model), key("num_heads", "num_attention_heads", heads),
                     key("num_layers", "num_hidden_layers", layers), key("num_decoder_layers", std::nullopt), kNone, kNone,
                     key("d_kv", "head_dim", 64), 0, false, false,
                     {param("relative_attention_num_buckets", key("relative_attention_num_buckets", 32)),
                      param("relative_attention_max_distance", key("relative_attention_max_distance", 128))},
                     shared};
}

// Encoder–decoder models with BART's learned table (offset 2) or Marian's sinusoids.
FamilyEntry seq2seq(const char* type, F family, const char* config_class, const char* modeling, long long offset,
                    const char* shared) {
  return FamilyEntry{type, R::Fixed, family, family, config_class, modeling,
                     key("d_model", "hidden_size", 1024), key("encoder_attention_heads", "num_attention_heads", 16),
                     key("encoder_layers", "num_hidden_layers", 12), key("decoder_layers", 12),
                     key("max_position_embeddings", 1024), kNone, kNone, offset, false, false, {}, shared};
}

FamilyEntry vision(const char* type, const char* config_class, const char* modeling, long long patch, bool class_token) {
  return FamilyEntry{type, R::Fixed, F::LearnedAbsolute, std::nullopt, config_class, modeling,
                     key("hidden_size", 768), key("num_attention_heads", 12), key("num_hidden_layers", 12), kNone, kNone,
                     kNone, kNone, 0, false, class_token,
                     {param("image_size", key("image_size", 224)), param("patch_size", key("patch_size", patch))},
                     "one table of patch positions, added to the patch embeddings before the first layer"};
}

void add_learned_decoders(std::vector<FamilyEntry>& t) {
  t.push_back({"gpt2", R::Fixed, F::LearnedAbsolute, std::nullopt, "GPT2Config (configuration_gpt2.py)",
               "GPT2Model.wpe = nn.Embedding(max_position_embeddings, hidden_size) (modeling_gpt2.py)",
               key("n_embd", "hidden_size", 768), key("n_head", "num_attention_heads", 12),
               key("n_layer", "num_hidden_layers", 12), kNone, key("n_positions", "max_position_embeddings", 1024), kNone,
               kNone, 0, false, false, {}, kLearnedShared});
  t.push_back({"gpt_neo", R::Fixed, F::LearnedAbsolute, std::nullopt, "GPTNeoConfig (configuration_gpt_neo.py)",
               "GPTNeoModel.wpe (modeling_gpt_neo.py)", key("hidden_size", 2048), key("num_heads", "num_attention_heads", 16),
               key("num_layers", "num_hidden_layers", 24), kNone, key("max_position_embeddings", 2048), kNone, kNone, 0,
               false, false, {}, kLearnedShared});
  t.push_back({"gpt_bigcode", R::Fixed, F::LearnedAbsolute, std::nullopt, "GPTBigCodeConfig (configuration_gpt_bigcode.py)",
               "GPTBigCodeModel.wpe (modeling_gpt_bigcode.py)", key("n_embd", "hidden_size", 768),
               key("n_head", "num_attention_heads", 12), key("n_layer", "num_hidden_layers", 12), kNone,
               key("n_positions", "max_position_embeddings", 1024), kNone, kNone, 0, false, false, {}, kLearnedShared});
  t.push_back({"opt", R::Fixed, F::LearnedAbsolute, std::nullopt, "OPTConfig (configuration_opt.py)",
               "OPTLearnedPositionalEmbedding: nn.Embedding(max_position_embeddings + 2, hidden_size), position p at row "
               "p + 2 (modeling_opt.py)",
               key("hidden_size", 768), key("num_attention_heads", 12), key("num_hidden_layers", 12), kNone,
               key("max_position_embeddings", 2048), kNone, kNone, 2, false, false, {}, kLearnedShared});
}

void add_encoder_decoders(std::vector<FamilyEntry>& t) {
  t.push_back(seq2seq("bart", F::LearnedAbsolute, "BartConfig (configuration_bart.py)",
                      "BartLearnedPositionalEmbedding: max_position_embeddings + 2 rows, offset 2 (modeling_bart.py)", 2,
                      "one learned table per stack (encoder, decoder), each added before its stack's first layer"));
  t.push_back(seq2seq("mbart", F::LearnedAbsolute, "MBartConfig (configuration_mbart.py)",
                      "MBartLearnedPositionalEmbedding: max_position_embeddings + 2 rows, offset 2 (modeling_mbart.py)", 2,
                      "one learned table per stack (encoder, decoder), each added before its stack's first layer"));
  t.push_back(seq2seq("marian", F::Sinusoidal, "MarianConfig (configuration_marian.py)",
                      "MarianSinusoidalPositionalEmbedding: sin in the first half of the dims, cos in the second, not "
                      "trained (modeling_marian.py)",
                      0, "one fixed sinusoidal table per stack, added before its first layer"));
  t.push_back({"whisper", R::Fixed, F::LearnedAbsolute, F::Sinusoidal, "WhisperConfig (configuration_whisper.py)",
               "WhisperEncoder.embed_positions: sinusoids(max_source_positions, d_model), frozen (requires_grad False); "
               "WhisperDecoder.embed_positions: WhisperPositionalEmbedding, learned (modeling_whisper.py)",
               key("d_model", "hidden_size", 256), key("encoder_attention_heads", "num_attention_heads", 4),
               key("encoder_layers", "num_hidden_layers", 6), key("decoder_layers", 6),
               key("max_target_positions", 448), key("max_source_positions", 1500), kNone, 0, false, false, {},
               "encoder: one fixed sinusoidal table (not trained); decoder: one learned table; each added before its "
               "stack's first layer"});
}

void add_encoders(std::vector<FamilyEntry>& t) {
  // BERT and its copies (the embeddings and self-attention are "Copied from" BERT's).
  t.push_back(bert_like("bert", "BertConfig (configuration_bert.py)",
                        "BertEmbeddings.position_embeddings (absolute); BertSelfAttention.distance_embedding "
                        "(relative_key, relative_key_query) (modeling_bert.py)",
                        768, 12, 12, 512, false, 0));
  t.push_back(bert_like("roberta", "RobertaConfig (configuration_roberta.py)",
                        "RobertaEmbeddings: create_position_ids_from_input_ids counts from padding_idx + 1 "
                        "(modeling_roberta.py)",
                        768, 12, 12, 512, true, 1));
  t.push_back(bert_like("xlm-roberta", "XLMRobertaConfig (configuration_xlm_roberta.py)",
                        "XLMRobertaEmbeddings: positions from padding_idx + 1 (modeling_xlm_roberta.py)", 768, 12, 12, 512,
                        true, 1));
  t.push_back(bert_like("camembert", "CamembertConfig (configuration_camembert.py)",
                        "CamembertEmbeddings: positions from padding_idx + 1 (modeling_camembert.py)", 768, 12, 12, 512,
                        true, 1));
  {
    FamilyEntry e = bert_like("electra", "ElectraConfig (configuration_electra.py)",
                              "ElectraEmbeddings.position_embeddings: nn.Embedding(max_position_embeddings, embedding_size) "
                              "(modeling_electra.py)",
                              256, 4, 12, 512, false, 0);
    e.parameters[0] = param("embedding_size", key("embedding_size", 128));
    t.push_back(e);
  }
  t.push_back({"distilbert", R::DistilBert, F::LearnedAbsolute, std::nullopt, "DistilBertConfig (configuration_distilbert.py)",
               "Embeddings.position_embeddings; sinusoidal_pos_embds: create_sinusoidal_embeddings, sin on even and cos on "
               "odd dims, not trained (modeling_distilbert.py)",
               key("dim", "hidden_size", 768), key("n_heads", "num_attention_heads", 12),
               key("n_layers", "num_hidden_layers", 6), kNone, key("max_position_embeddings", 512), kNone, kNone, 0, false,
               false, {param("sinusoidal_pos_embds", key("sinusoidal_pos_embds", 0), true)}, kLearnedShared});
}

void add_relative(std::vector<FamilyEntry>& t) {
  // The T5 family.
  t.push_back(t5_like("t5", "T5Config (configuration_t5.py)", 512, 8, 6, kT5Shared));
  t.push_back(t5_like("mt5", "MT5Config (configuration_mt5.py)", 512, 6, 8, kT5Shared));
  t.push_back(t5_like("umt5", "UMT5Config (configuration_umt5.py)", 512, 6, 8,
                      "one bias table per layer: every UMT5Attention has its own relative_attention_bias"));
  t.push_back(t5_like("longt5", "LongT5Config (configuration_longt5.py)", 512, 8, 6, kT5Shared));
  t.push_back(t5_like("switch_transformers", "SwitchTransformersConfig (configuration_switch_transformers.py)", 768, 12, 12,
                      kT5Shared));
  // ---- DeBERTa.
  for (const char* type : {"deberta", "deberta-v2"}) {
    const bool v2 = std::string(type) == "deberta-v2";
    FamilyEntry e{type, R::Deberta, F::DebertaRelative, std::nullopt,
                  v2 ? "DebertaV2Config (configuration_deberta_v2.py)" : "DebertaConfig (configuration_deberta.py)",
                  v2 ? "DisentangledSelfAttention with make_log_bucket_position over query − key; encoder.rel_embeddings "
                       "(modeling_deberta_v2.py)"
                     : "DisentangledSelfAttention over query − key; encoder.rel_embeddings (modeling_deberta.py)",
                  key("hidden_size", v2 ? 1536 : 768), key("num_attention_heads", v2 ? 24 : 12),
                  key("num_hidden_layers", v2 ? 24 : 12), kNone, key("max_position_embeddings", 512), kNone, kNone, 0,
                  false, false,
                  {param("relative_attention", key("relative_attention", 0), true),
                   param("position_biased_input", key("position_biased_input", 1), true),
                   param("max_relative_positions", key("max_relative_positions", -1)),
                   param("position_buckets", v2 ? key("position_buckets", -1) : kNone)},
                  "one rel_embeddings table in the encoder, shared by every layer (each layer projects it with its own "
                  "query / key weights)"};
    t.push_back(e);
  }
  // Transformer-XL relative positions.
  t.push_back({"transfo-xl", R::Fixed, F::TransformerXl, std::nullopt,
               "TransfoXLConfig (models/deprecated/transfo_xl/configuration_transfo_xl.py)",
               "RelPartialLearnableMultiHeadAttn: sinusoidal R, r_w_bias (u) and r_r_bias (v) (modeling_transfo_xl.py)",
               key("d_model", "hidden_size", 1024), key("n_head", "num_attention_heads", 16),
               key("n_layer", "num_hidden_layers", 18), kNone, kNone, kNone, key("d_head", 64), 0, false, false,
               {param("mem_len", key("mem_len", 1600)), param("clamp_len", key("clamp_len", 1000))},
               "one sinusoidal R shared by every layer; u and v shared too unless untie_r"});
  t.push_back({"xlnet", R::Fixed, F::TransformerXl, std::nullopt, "XLNetConfig (configuration_xlnet.py)",
               "XLNetRelativeAttention: sinusoidal relative positional encoding, r_w_bias / r_r_bias (modeling_xlnet.py)",
               key("d_model", "hidden_size", 1024), key("n_head", "num_attention_heads", 16),
               key("n_layer", "num_hidden_layers", 24), kNone, kNone, kNone, kNone, 0, false, false,
               {param("mem_len", key("mem_len", 512)), param("clamp_len", key("clamp_len", -1))},
               "one sinusoidal relative encoding shared by every layer; each layer has its own r_w_bias / r_r_bias"});
}

void add_alibi_and_rotary(std::vector<FamilyEntry>& t) {
  // ALiBi.
  t.push_back({"bloom", R::Fixed, F::Alibi, std::nullopt, "BloomConfig (configuration_bloom.py; n_embed accepted for hidden_size)",
               "build_alibi_tensor, added to every layer's logits (modeling_bloom.py)", key("hidden_size", "n_embed", 64),
               key("n_head", "num_attention_heads", 8), key("n_layer", "num_hidden_layers", 2), kNone, kNone, kNone, kNone,
               0, false, false, {}, "no table: every layer adds the same −m_h·(i − j) per head"});
  t.push_back({"mpt", R::Mpt, F::Alibi, std::nullopt, "MptConfig + MptAttentionConfig (configuration_mpt.py)",
               "build_mpt_alibi_tensor(num_heads, max_seq_len), alibi_bias_max 8 (modeling_mpt.py); MptModel has no "
               "position table",
               key("d_model", "hidden_size", 2048), key("n_heads", "num_attention_heads", 16),
               key("n_layers", "num_hidden_layers", 24), kNone, key("max_seq_len", 2048), kNone, kNone, 0, false, false,
               {param("alibi", key("attn_config.alibi", 1), true), param("alibi_bias_max", key("attn_config.alibi_bias_max", 8))},
               "no table: every layer adds the same −m_h·(i − j) per head"});
  t.push_back({"falcon", R::FalconAlibiFlag, F::Rope, std::nullopt,
               "FalconConfig (configuration_falcon.py; rotary = not alibi; n_embed accepted for hidden_size)",
               "build_alibi_tensor (copied from BLOOM's) when alibi, else FalconRotaryEmbedding (modeling_falcon.py)",
               key("hidden_size", "n_embed", 4544), key("num_attention_heads", "n_head", 71),
               key("num_hidden_layers", "n_layer", 32), kNone, key("max_position_embeddings", 2048), kNone, kNone, 0, false,
               false, {param("alibi", key("alibi", 0), true)}, "no table: every layer adds the same −m_h·(i − j) per head"});
  // Rotary models whose classes name the keys their own way (the RoPE reader reads them).
  t.push_back({"gptj", R::Rotary, F::Rope, std::nullopt, "GPTJConfig (configuration_gptj.py)",
               "rotate_every_two on the first rotary_dim dims (modeling_gptj.py)", key("n_embd", "hidden_size", 4096),
               key("n_head", "num_attention_heads", 16), key("n_layer", "num_hidden_layers", 28), kNone,
               key("n_positions", "max_position_embeddings", 2048), kNone, kNone, 0, false, false, {}, ""});
  t.push_back({"codegen", R::Rotary, F::Rope, std::nullopt, "CodeGenConfig (configuration_codegen.py)",
               "rotate_every_two on the first rotary_dim dims (modeling_codegen.py)", key("n_embd", "hidden_size", 4096),
               key("n_head", "num_attention_heads", 16), key("n_layer", "num_hidden_layers", 28), kNone,
               key("n_positions", "max_position_embeddings", 2048), kNone, kNone, 0, false, false, {}, ""});
}

void add_towers(std::vector<FamilyEntry>& t) {
  // Vision towers and the text towers of CLIP / SigLIP.
  t.push_back(vision("vit", "ViTConfig (configuration_vit.py)",
                     "ViTEmbeddings.position_embeddings: (num_patches + 1) × hidden_size (modeling_vit.py)", 16, true));
  t.push_back(vision("clip_vision_model", "CLIPVisionConfig (configuration_clip.py)",
                     "CLIPVisionEmbeddings.position_embedding: num_patches + 1 rows (modeling_clip.py)", 32, true));
  t.push_back(vision("siglip_vision_model", "SiglipVisionConfig (configuration_siglip.py)",
                     "SiglipVisionEmbeddings.position_embedding: num_patches rows, no class token (modeling_siglip.py)", 16,
                     false));
  for (const auto& [type, cls, hidden, heads, positions] :
       {std::tuple{"clip_text_model", "CLIPTextConfig (configuration_clip.py)", 512LL, 8LL, 77LL},
        std::tuple{"clip", "CLIPConfig → CLIPTextConfig (configuration_clip.py)", 512LL, 8LL, 77LL},
        std::tuple{"siglip_text_model", "SiglipTextConfig (configuration_siglip.py)", 768LL, 12LL, 64LL},
        std::tuple{"siglip", "SiglipConfig → SiglipTextConfig (configuration_siglip.py)", 768LL, 12LL, 64LL}})
    t.push_back({type, R::Fixed, F::LearnedAbsolute, std::nullopt, cls,
                 "the text tower's embeddings.position_embedding (modeling_clip.py / modeling_siglip.py)",
                 key("hidden_size", hidden), key("num_attention_heads", heads), key("num_hidden_layers", 12), kNone,
                 key("max_position_embeddings", positions), kNone, kNone, 0, false, false, {}, kLearnedShared});
}

std::vector<FamilyEntry> build_table() {
  std::vector<FamilyEntry> t;
  add_learned_decoders(t);
  add_encoder_decoders(t);
  add_encoders(t);
  add_relative(t);
  add_alibi_and_rotary(t);
  add_towers(t);
  return t;
}

}  // namespace

const std::vector<FamilyEntry>& family_table() {
  static const std::vector<FamilyEntry> table = build_table();
  return table;
}

const FamilyEntry* family_entry(const std::string& model_type) {
  for (const auto& e : family_table())
    if (model_type == e.model_type) return &e;
  return nullptr;
}

}  // namespace pe::detail
