// DeBERTa's disentangled attention score: transformers modeling_deberta_v2.py,
// DisentangledSelfAttention.forward (scale_factor) and disentangled_attention_bias (c2p, p2c).
#include "pe/relative/deberta_score.hpp"

#include <cmath>
#include <string>

#include "pe/base/errors.hpp"
#include "pe/base/text.hpp"
#include "pe/encodings/learned.hpp"

namespace pe {

namespace {

inline constexpr long long kMaxScoreDim = 4096;

std::string strip(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

}  // namespace

DebertaAttentionTypes deberta_attention_types_from_string(const std::string& text) {
  // DebertaV2Config: a string is lower-cased and split on "|", each part stripped.
  const std::string lower = ascii_lower(text);
  DebertaAttentionTypes types{false, false};
  if (strip(lower).empty() || strip(lower) == "none") return types;
  std::size_t start = 0;
  while (start <= lower.size()) {
    const std::size_t bar = lower.find('|', start);
    const std::string part = strip(lower.substr(start, bar == std::string::npos ? std::string::npos : bar - start));
    if (part == "c2p") types.c2p = true;
    else if (part == "p2c") types.p2c = true;
    else
      throw InvalidArgument("pos_att_type", "\"" + text + "\"",
                            "a |-separated list of c2p and p2c (transformers computes no other type)");
    if (bar == std::string::npos) break;
    start = bar + 1;
  }
  return types;
}

std::string to_string(const DebertaAttentionTypes& types) {
  if (types.c2p && types.p2c) return "c2p|p2c";
  if (types.c2p) return "c2p";
  if (types.p2c) return "p2c";
  return "none";
}

int deberta_scale_factor(const DebertaAttentionTypes& types) noexcept {
  return 1 + (types.c2p ? 1 : 0) + (types.p2c ? 1 : 0);
}

DebertaScoreSplit deberta_score_split(const Eigen::Ref<const Eigen::VectorXd>& q,
                                      const Eigen::Ref<const Eigen::VectorXd>& k,
                                      const Eigen::Ref<const Eigen::VectorXd>& pos_key_row,
                                      const Eigen::Ref<const Eigen::VectorXd>& pos_query_row,
                                      const DebertaAttentionTypes& types) {
  const Eigen::Index d = q.size();
  if (d < 1 || k.size() != d) throw InvalidArgument("k", format_integer(k.size()) + " entries", "q and k need the same size >= 1");
  if (types.c2p && pos_key_row.size() != d)
    throw InvalidArgument("pos_key_row", format_integer(pos_key_row.size()) + " entries", "c2p needs a row of q's size");
  if (types.p2c && pos_query_row.size() != d)
    throw InvalidArgument("pos_query_row", format_integer(pos_query_row.size()) + " entries", "p2c needs a row of q's size");
  // Each term is scaled by 1/√(d · scale_factor) (transformers scales q·k, c2p and p2c alike).
  const double scale = 1.0 / std::sqrt(static_cast<double>(d) * deberta_scale_factor(types));
  DebertaScoreSplit s;
  s.c2c = q.dot(k) * scale;
  if (types.c2p) s.c2p = q.dot(pos_key_row) * scale;
  if (types.p2c) s.p2c = k.dot(pos_query_row) * scale;
  return s;
}

DebertaScoreMaps deberta_score_maps(long long length, long long dim, const DebertaPositionParams& params,
                                    const DebertaAttentionTypes& types, std::uint64_t seed) {
  require_deberta_params(params);
  require_length("length", length);
  require_in_range("dim", dim, 1, kMaxScoreDim);
  check_table_budget("DeBERTa score maps", length, 4 * length, sizeof(double));
  const long long rows = 2 * deberta_attention_span(params);
  check_table_budget("DeBERTa relative embeddings", rows, 2 * dim, sizeof(double));
  // Independent seeded streams for contents and the two projected relative tables.
  const MatrixD q = seeded_matrix(length, dim, mix_seed(seed, 1));
  const MatrixD k = seeded_matrix(length, dim, mix_seed(seed, 2));
  const MatrixD pos_key = seeded_matrix(rows, dim, mix_seed(seed, 3));
  const MatrixD pos_query = seeded_matrix(rows, dim, mix_seed(seed, 4));
  DebertaScoreMaps maps;
  maps.types = types;
  maps.scale_factor = deberta_scale_factor(types);
  maps.c2c = (q * k.transpose()).array() / std::sqrt(static_cast<double>(dim) * maps.scale_factor);
  maps.c2p = TableD::Zero(length, length);
  maps.p2c = TableD::Zero(length, length);
  maps.position_share = TableD::Zero(length, length);
  const BucketTable buckets = deberta_bucket_matrix(length, params);
  for (long long i = 0; i < length; ++i) {
    for (long long j = 0; j < length; ++j) {
      const long long row = deberta_embedding_row(buckets(i, j), params);
      const DebertaScoreSplit s = deberta_score_split(q.row(i).transpose(), k.row(j).transpose(),
                                                      pos_key.row(row).transpose(), pos_query.row(row).transpose(), types);
      maps.c2p(i, j) = s.c2p;
      maps.p2c(i, j) = s.p2c;
      const double magnitude = std::abs(s.c2c) + std::abs(s.c2p) + std::abs(s.p2c);
      maps.position_share(i, j) = magnitude > 0 ? (std::abs(s.c2p) + std::abs(s.p2c)) / magnitude : 0.0;
    }
  }
  return maps;
}

}  // namespace pe
