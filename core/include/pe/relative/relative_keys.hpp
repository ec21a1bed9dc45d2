#pragma once
// Learned relative position embeddings on the keys: Shaw et al. 2018 ("Self-Attention with
// Relative Position Representations") and Huang et al. 2020 ("Improve Transformer Models with
// Better Relative Position Embeddings", method 4), as BERT implements them in Hugging Face
// transformers (models/bert/modeling_bert.py, BertSelfAttention with config
// position_embedding_type "relative_key" or "relative_key_query"; also RoBERTa, ELECTRA,
// XLM-R and the other BERT copies):
//
//   distance(i, j) = i − j                     query position − key position
//   row(i, j)      = distance + max_position_embeddings − 1
//   e_ij           = distance_embedding[row]   nn.Embedding(2·max_position_embeddings − 1, head_size)
//   relative_key:        logit = (q_i·k_j + q_i·e_ij) / √head_size
//   relative_key_query:  logit = (q_i·k_j + q_i·e_ij + k_j·e_ij) / √head_size
//
// One embedding row per distance −(P − 1) ... P − 1 (P = max_position_embeddings): BERT does
// not clip; its table simply covers every distance an input of at most P tokens has, and a
// longer input is an index error (bert_distance_row refuses it). Shaw et al. instead clip the
// distance (written key − query there) to ±k and share the edge rows beyond
// (shaw_clipped_distance). Note the opposite signs of the two conventions.
// With use_cache (decoding) transformers uses query position key_length − 1.
#include "pe/relative/module_guard.hpp"
#include <cstdint>
#include <string>

#include "pe/base/types.hpp"
#include "pe/relative/bucket_types.hpp"

namespace pe {

enum class RelativeKeyType { RelativeKey, RelativeKeyQuery };
// "relative_key" / "relative_key_query" (the config's position_embedding_type values).
const char* to_string(RelativeKeyType type);
// Parses those two names; throws InvalidArgument naming "position_embedding_type".
RelativeKeyType relative_key_type_from_string(const std::string& text);

// Row of distance_embedding for query position `query` and key position `key` (both >= 0):
// (query − key) + max_position_embeddings − 1. Throws InvalidArgument naming
// "max_position_embeddings" when |query − key| > max_position_embeddings − 1 (BERT would
// index past its table) or when max_position_embeddings is not 1 ... kMaxLength.
long long bert_distance_row(long long query, long long key, long long max_position_embeddings);

// Shaw et al. 2018 eq. (3)-(4): clip(key − query, −k, k); its row in their table of 2k + 1
// rows is this + k. k >= 0 (named "max_relative_position", as in tensor2tensor).
long long shaw_clipped_distance(long long query, long long key, long long max_relative_position);

// The relative terms of one pair, before the division by √head_size: q·e, and k·e for
// relative_key_query (0 for relative_key); and the full logit as BERT computes it.
struct RelativeKeyTerms {
  double content = 0;    // q·k
  double query_term = 0; // q·e
  double key_term = 0;   // k·e (relative_key_query only)
  double head_size = 1;
  double logit() const noexcept;  // (content + query_term + key_term) / √head_size
};
// q, k, e of the same size (head_size >= 1); throws InvalidArgument otherwise.
RelativeKeyTerms relative_key_terms(const Eigen::Ref<const Eigen::VectorXd>& q,
                                    const Eigen::Ref<const Eigen::VectorXd>& k,
                                    const Eigen::Ref<const Eigen::VectorXd>& e, RelativeKeyType type);

// length × length table of the distance_embedding row each (query, key) pair reads; throws
// like bert_distance_row when length > max_position_embeddings. Budget-checked.
BucketTable bert_distance_rows(long long length, long long max_position_embeddings);

// ILLUSTRATIVE (seeded, untrained) maps of what the relative embedding adds to one head's
// scores over length × length pairs, for a view: q_i, k_j and the distance_embedding rows of
// distances −(length − 1) … length − 1 (the rows such an input reads; row r ↔ distance
// r − (length − 1)) are seeded N(0, 1) vectors of size `dim` (independent streams, mix_seed).
// Each map is already divided by √dim, as BertSelfAttention divides the sum: content q·k,
// query_term q·e (both types), key_term k·e (relative_key_query; all 0 for relative_key).
// length must fit the table (<= max_position_embeddings, as bert_distance_rows); dim 1 … 4096;
// budget-checked.
struct RelativeKeyMaps {
  TableD content, query_term, key_term;
  RelativeKeyType type = RelativeKeyType::RelativeKey;
};
RelativeKeyMaps relative_key_term_maps(long long length, long long dim, long long max_position_embeddings, RelativeKeyType type,
                                       std::uint64_t seed = 0);

}  // namespace pe
