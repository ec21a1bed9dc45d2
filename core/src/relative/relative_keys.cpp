// BERT's relative keys: transformers models/bert/modeling_bert.py, BertSelfAttention
// (position_embedding_type relative_key / relative_key_query, distance_embedding); Shaw et al.
// 2018's clipping for comparison.
#include "pe/relative/relative_keys.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "pe/base/errors.hpp"
#include "pe/encodings/learned.hpp"

namespace pe {

long long bert_distance_row(long long query, long long key, long long max_position_embeddings) {
  require_length("max_position_embeddings", max_position_embeddings);
  require_in_range("query", query, 0, kMaxLength);
  require_in_range("key", key, 0, kMaxLength);
  const long long distance = query - key;
  if (std::llabs(distance) > max_position_embeddings - 1) {
    // transformers would index past distance_embedding (2·P − 1 rows): an IndexError.
    throw InvalidArgument("max_position_embeddings", format_integer(max_position_embeddings),
                          "BERT's relative keys have rows for distances -(P - 1) ... P - 1 only; distance " +
                              format_integer(distance) + " (query " + format_integer(query) + ", key " +
                              format_integer(key) + ") needs max_position_embeddings >= " +
                              format_integer(std::llabs(distance) + 1));
  }
  return distance + max_position_embeddings - 1;
}

long long shaw_clipped_distance(long long query, long long key, long long max_relative_position) {
  require_in_range("max_relative_position", max_relative_position, 0, kMaxLength);
  require_in_range("query", query, 0, kMaxLength);
  require_in_range("key", key, 0, kMaxLength);
  return std::clamp(key - query, -max_relative_position, max_relative_position);
}

double RelativeKeyTerms::logit() const noexcept { return (content + query_term + key_term) / std::sqrt(head_size); }

RelativeKeyTerms relative_key_terms(const Eigen::Ref<const Eigen::VectorXd>& q,
                                    const Eigen::Ref<const Eigen::VectorXd>& k,
                                    const Eigen::Ref<const Eigen::VectorXd>& e, RelativeKeyType type) {
  if (q.size() < 1 || k.size() != q.size() || e.size() != q.size())
    throw InvalidArgument("e", format_integer(e.size()) + " entries", "q, k and e need the same size >= 1");
  RelativeKeyTerms t;
  t.head_size = static_cast<double>(q.size());
  t.content = q.dot(k);
  t.query_term = q.dot(e);  // einsum("bhld,lrd->bhlr", query, positional_embedding)
  if (type == RelativeKeyType::RelativeKeyQuery) t.key_term = k.dot(e);  // einsum("bhrd,lrd->bhlr", key, ...)
  return t;
}

BucketTable bert_distance_rows(long long length, long long max_position_embeddings) {
  require_length("length", length);
  (void)bert_distance_row(length - 1, 0, max_position_embeddings);  // the largest distance fits
  check_table_budget("BERT distance rows", length, length, sizeof(std::int32_t));
  BucketTable rows(length, length);
  for (long long i = 0; i < length; ++i)
    for (long long j = 0; j < length; ++j) rows(i, j) = static_cast<std::int32_t>(i - j + max_position_embeddings - 1);
  return rows;
}

RelativeKeyMaps relative_key_term_maps(long long length, long long dim, long long max_position_embeddings, RelativeKeyType type,
                                       std::uint64_t seed) {
  require_length("length", length);
  require_in_range("dim", dim, 1, 4096);
  (void)bert_distance_row(length - 1, 0, max_position_embeddings);  // BERT reads no row past its table
  check_table_budget("relative key term maps", length, 3 * length, sizeof(double));
  check_table_budget("relative key embeddings", 2 * length - 1, dim, sizeof(double));
  const MatrixD q = seeded_matrix(length, dim, mix_seed(seed, 1));
  const MatrixD k = seeded_matrix(length, dim, mix_seed(seed, 2));
  const MatrixD e = seeded_matrix(2 * length - 1, dim, mix_seed(seed, 3));
  RelativeKeyMaps maps;
  maps.type = type;
  for (TableD* t : {&maps.content, &maps.query_term, &maps.key_term}) *t = TableD::Zero(length, length);
  const double scale = 1.0 / std::sqrt(static_cast<double>(dim));
  for (long long i = 0; i < length; ++i) {
    for (long long j = 0; j < length; ++j) {
      const RelativeKeyTerms t = relative_key_terms(q.row(i).transpose(), k.row(j).transpose(),
                                                    e.row(i - j + length - 1).transpose(), type);
      maps.content(i, j) = t.content * scale;
      maps.query_term(i, j) = t.query_term * scale;
      maps.key_term(i, j) = t.key_term * scale;
    }
  }
  return maps;
}

}  // namespace pe
