// T5's relative attention bias tables: transformers modeling_t5.py (compute_bias; one table
// in block 0 of each stack) and modeling_umt5.py (one table per layer).
#include "pe/relative/t5_bias.hpp"

#include <cmath>
#include <string>

#include "pe/base/errors.hpp"

namespace pe {

namespace {

inline constexpr long long kMaxT5Heads = 65536;

void require_table(const T5BiasTable& table, const T5BucketParams& params) {
  if (table.bias.rows() != params.num_buckets || table.bias.cols() < 1) {
    throw InvalidArgument("bias", format_integer(table.bias.rows()) + " x " + format_integer(table.bias.cols()),
                          "a T5 bias table has num_buckets = " + format_integer(params.num_buckets) +
                              " rows and at least one head column");
  }
}

void require_head(const T5BiasTable& table, long long head) {
  require_in_range("head", head, 0, table.bias.cols() - 1);
}

// The smallest |key − query| of each bucket (0 for an empty one): the "nearest distance" the
// illustrative table is built from.
std::vector<long long> nearest_distances(const T5BucketParams& params) {
  const std::vector<T5BucketSpan> spans = t5_bucket_spans(params);
  std::vector<long long> nearest(spans.size(), 0);
  const long long half = params.num_buckets / 2;
  for (std::size_t b = 0; b < spans.size(); ++b) {
    const T5BucketSpan& s = spans[b];
    if (s.empty) continue;
    // Keys after the query (bidirectional upper half): the span starts nearest, at `first`;
    // keys before it: the span ends nearest, at `last` (<= 0).
    const bool after_query = !params.causal && static_cast<long long>(b) >= half;
    nearest[b] = after_query ? s.first : -s.last;
  }
  return nearest;
}

}  // namespace

const T5BiasTable& T5StackBias::table_for_layer(long long layer) const {
  require_in_range("layer", layer, 0, layers - 1);
  if (sharing == T5BiasSharing::PerStack) {
    if (tables.empty()) throw InvalidArgument("tables", "0", "a per-stack T5 bias needs one table");
    return tables.front();
  }
  if (static_cast<long long>(tables.size()) != layers) {
    throw InvalidArgument("tables", std::to_string(tables.size()),
                          "a per-layer T5 bias needs one table per layer (" + format_integer(layers) + ")");
  }
  return tables[static_cast<std::size_t>(layer)];
}

void require_t5_stack(const T5StackBias& stack, const T5BucketParams& params) {
  require_t5_bucket_params(params);
  require_in_range("layers", stack.layers, 1, 1'000'000);
  const long long expected = stack.sharing == T5BiasSharing::PerStack ? 1 : stack.layers;
  if (static_cast<long long>(stack.tables.size()) != expected) {
    throw InvalidArgument("tables", std::to_string(stack.tables.size()),
                          std::string(to_string(stack.sharing)) + " T5 bias with " + format_integer(stack.layers) +
                              " layers needs " + format_integer(expected) + " table(s)");
  }
  for (const T5BiasTable& t : stack.tables) {
    require_table(t, params);
    if (t.bias.cols() != stack.tables.front().bias.cols())
      throw InvalidArgument("bias", format_integer(t.bias.cols()) + " heads", "every table of a stack has the same heads");
    if (!t.bias.isFinite().all()) throw InvalidArgument("bias", "a non-finite entry", "bias entries must be finite");
  }
}

double t5_bias(const T5BiasTable& table, const T5BucketParams& params, long long relative_position, long long head) {
  require_table(table, params);
  require_head(table, head);
  return table.bias(t5_relative_bucket(relative_position, params), head);
}

TableD t5_bias_matrix(const T5BiasTable& table, const T5BucketParams& params, long long query_length,
                      long long key_length, long long head) {
  require_table(table, params);
  require_head(table, head);
  require_length("query_length", query_length);
  require_length("key_length", key_length);
  check_table_budget("T5 bias matrix", query_length, key_length, sizeof(double));
  // Relative positions key − query run from −(query_length − 1) to key_length − 1.
  const long long offsets = query_length + key_length - 1;
  Eigen::ArrayXd by_offset(offsets);
  for (long long k = 0; k < offsets; ++k)
    by_offset[k] = table.bias(t5_relative_bucket(k - (query_length - 1), params), head);
  TableD out(query_length, key_length);
  for (long long i = 0; i < query_length; ++i)
    for (long long j = 0; j < key_length; ++j) out(i, j) = by_offset[j - i + query_length - 1];
  return out;
}

double t5_logit(const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Ref<const Eigen::VectorXd>& k, double bias) {
  if (q.size() != k.size() || q.size() < 1)
    throw InvalidArgument("k", format_integer(k.size()) + " entries", "q and k need the same size >= 1");
  // No 1/√d: T5Attention adds position_bias to matmul(q, kᵀ) as it is.
  return q.dot(k) + bias;
}

namespace {

// Entry (b, h) of the illustrative table, one expression for the table and its columns.
double illustrative_entry(const T5BucketParams& params, const std::vector<long long>& nearest, long long b, long long h,
                          long long heads) {
  const bool after_query = !params.causal && b >= params.num_buckets / 2;
  const double fall = std::log1p(static_cast<double>(nearest[static_cast<std::size_t>(b)]));
  const double rate = static_cast<double>(h + 1) / static_cast<double>(heads);
  return -rate * fall * (after_query ? 0.5 : 1.0);
}

}  // namespace

T5BiasTable t5_illustrative_bias_table(const T5BucketParams& params, long long heads) {
  require_t5_bucket_params(params);
  require_in_range("heads", heads, 1, kMaxT5Heads);
  const std::vector<long long> nearest = nearest_distances(params);
  T5BiasTable table;
  table.illustrative = true;
  table.bias.resize(params.num_buckets, heads);
  for (long long b = 0; b < params.num_buckets; ++b)
    for (long long h = 0; h < heads; ++h) table.bias(b, h) = illustrative_entry(params, nearest, b, h, heads);
  return table;
}

Eigen::ArrayXd t5_illustrative_bias_column(const T5BucketParams& params, long long heads, long long head) {
  require_t5_bucket_params(params);
  require_in_range("heads", heads, 1, kMaxT5Heads);
  require_in_range("head", head, 0, heads - 1);
  const std::vector<long long> nearest = nearest_distances(params);
  Eigen::ArrayXd column(params.num_buckets);
  for (long long b = 0; b < params.num_buckets; ++b) column[b] = illustrative_entry(params, nearest, b, head, heads);
  return column;
}

T5StackBias t5_illustrative_stack(const T5BucketParams& params, long long heads, long long layers,
                                  T5BiasSharing sharing) {
  require_in_range("layers", layers, 1, 1'000'000);
  const T5BiasTable base = t5_illustrative_bias_table(params, heads);
  T5StackBias stack;
  stack.sharing = sharing;
  stack.layers = layers;
  const long long count = sharing == T5BiasSharing::PerStack ? 1 : layers;
  for (long long l = 0; l < count; ++l) {
    T5BiasTable t = base;
    t.bias /= 1.0 + static_cast<double>(l) / static_cast<double>(layers);
    stack.tables.push_back(std::move(t));
  }
  return stack;
}

}  // namespace pe
