#pragma once
// DeBERTa's disentangled attention score (He et al. 2021, §3.1; transformers'
// DisentangledSelfAttention in modeling_deberta_v2.py): for query i and key j of one head,
//
//   score(i, j) = [ c2c + c2p + p2c ] / √(d · scale_factor)
//     c2c = Q_i · K_j                       content to content (always there)
//     c2p = Q_i · Kr_δ(i, j)                content to position, if "c2p" in pos_att_type
//     p2c = K_j · Qr_δ(i, j)                position to content, if "p2c" in pos_att_type
//   scale_factor = 1 + ("c2p" in pos_att_type) + ("p2c" in pos_att_type)
//
// Q, K are the content projections, Kr = pos_key_proj(rel_embeddings) and
// Qr = pos_query_proj(rel_embeddings) the projected relative embeddings (with
// share_att_key, as in DeBERTa-v3: the content projections applied to rel_embeddings), and
// δ(i, j) = deberta_embedding_row(bucket(i − j)) (deberta.hpp). With both types (DeBERTa-v2
// and v3: pos_att_type ["p2c", "c2p"]) the scaling is 1/√(3d). c2c does not depend on
// position; c2p and p2c do, through δ only.
#include "pe/relative/module_guard.hpp"
#include <cstdint>
#include <string>

#include "pe/base/types.hpp"
#include "pe/relative/deberta.hpp"

namespace pe {

// Which position terms a model has (config pos_att_type: a list, or a "|"-separated string
// in old configs). microsoft/DeBERTa also knows "p2p"; transformers does not compute it.
struct DebertaAttentionTypes {
  bool c2p = true;
  bool p2c = true;
};
// Parses "c2p|p2c", "p2c|c2p", "c2p", "p2c", "" / "none" (case-insensitive, spaces ignored);
// throws InvalidArgument naming "pos_att_type" for anything else (including "p2p").
DebertaAttentionTypes deberta_attention_types_from_string(const std::string& text);
std::string to_string(const DebertaAttentionTypes& types);  // "c2p|p2c", "c2p", "p2c" or "none"

// 1 + c2p + p2c.
int deberta_scale_factor(const DebertaAttentionTypes& types) noexcept;

// The three terms of one pair, each already divided by √(d · scale_factor); an absent type
// contributes 0. total() is the logit transformers adds the mask to.
struct DebertaScoreSplit {
  double c2c = 0, c2p = 0, p2c = 0;
  double total() const noexcept { return c2c + c2p + p2c; }
  // The part that depends on position: c2p + p2c.
  double positional() const noexcept { return c2p + p2c; }
};

// q, k: content vectors of query i and key j (size d); pos_key_row = Kr_δ(i, j),
// pos_query_row = Qr_δ(i, j) (size d; ignored when the type is absent). Throws
// InvalidArgument for mismatched sizes or d < 1.
DebertaScoreSplit deberta_score_split(const Eigen::Ref<const Eigen::VectorXd>& q,
                                      const Eigen::Ref<const Eigen::VectorXd>& k,
                                      const Eigen::Ref<const Eigen::VectorXd>& pos_key_row,
                                      const Eigen::Ref<const Eigen::VectorXd>& pos_query_row,
                                      const DebertaAttentionTypes& types);

// ILLUSTRATIVE (seeded, untrained) maps of the three terms over length × length pairs, for a
// view of "which share of the score depends on position": Q, K rows and the projected
// relative embedding rows Kr, Qr (2·att_span rows) are seeded N(0, 1) vectors of size
// `dim`, independent per seed stream (mix_seed). Each term is divided by √(dim · scale_factor)
// as above; absent types are all-zero tables. position_share(i, j) =
// (|c2p| + |p2c|) / (|c2c| + |c2p| + |p2c|), the share of the score's magnitude that
// depends on position (0 where all three are 0). Budget-checked (four length × length
// tables of doubles); dim 1 ... 4096.
struct DebertaScoreMaps {
  TableD c2c, c2p, p2c;
  TableD position_share;
  DebertaAttentionTypes types;
  int scale_factor = 3;
};
DebertaScoreMaps deberta_score_maps(long long length, long long dim, const DebertaPositionParams& params,
                                    const DebertaAttentionTypes& types, std::uint64_t seed = 0);

}  // namespace pe
