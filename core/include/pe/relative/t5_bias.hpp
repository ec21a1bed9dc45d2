#pragma once
// T5's relative attention bias: a learned table [num_buckets][heads] (transformers:
// relative_attention_bias = nn.Embedding(num_buckets, n_heads)); compute_bias looks up the
// bucket of every (query, key) pair and adds bias[bucket][head] to that head's logit.
//
//   logit(q_i, k_j) = q_i · k_j + bias[bucket(j − i)][head]      — no 1/√d: T5 folds the
//   scaling into its weight initialisation (Mesh TensorFlow), so T5Attention computes
//   torch.matmul(query, key^T) + position_bias and nothing divides it.
//
// Who owns a table (modeling_t5.py / modeling_umt5.py):
//  - T5, mT5, Flan-T5, LongT5: only block 0 of each stack (encoder, decoder) has
//    has_relative_attention_bias; its position_bias is passed on to every later layer of that
//    stack: one table per stack, shared by its layers (T5BiasSharing::PerStack).
//  - UMT5: every layer of a stack has its own relative_attention_bias
//    (T5BiasSharing::PerLayer).
// Cross-attention adds no position bias.
#include "pe/relative/module_guard.hpp"
#include <vector>

#include "pe/base/types.hpp"
#include "pe/relative/t5_buckets.hpp"

namespace pe {

// One bias table: bias(bucket, head), num_buckets × heads, as nn.Embedding stores it.
struct T5BiasTable {
  TableD bias;
  // True when the numbers are t5_illustrative_bias_table's, not a model's trained weights:
  // a view must say so wherever it shows them.
  bool illustrative = false;
};

enum class T5BiasSharing { PerStack, PerLayer };
const char* to_string(T5BiasSharing sharing);  // "per-stack" / "per-layer"

// The tables of one stack (encoder or decoder) of `layers` layers.
//  PerStack: tables.size() == 1, used by every layer (T5).
//  PerLayer: tables.size() == layers, table l for layer l (UMT5).
struct T5StackBias {
  T5BiasSharing sharing = T5BiasSharing::PerStack;
  long long layers = 1;
  std::vector<T5BiasTable> tables;

  // The table layer `layer` (0 ... layers − 1) uses; throws InvalidArgument naming "layer".
  const T5BiasTable& table_for_layer(long long layer) const;
};

// Checks a stack: layers >= 1, the table count its sharing implies, every table
// num_buckets × heads with the same heads and finite entries (InvalidArgument naming the
// parameter: "layers", "tables", "bias").
void require_t5_stack(const T5StackBias& stack, const T5BucketParams& params);

// bias(bucket(relative_position), head) for one pair (relative_position = key − query,
// head 0-based). Throws InvalidArgument when the table is not num_buckets rows or head is
// not 0 ... heads − 1.
double t5_bias(const T5BiasTable& table, const T5BucketParams& params, long long relative_position, long long head);

// query_length × key_length bias of one head, entry (i, j) = bias(bucket(j − i), head): what
// compute_bias returns for that head. Budget-checked.
TableD t5_bias_matrix(const T5BiasTable& table, const T5BucketParams& params, long long query_length,
                      long long key_length, long long head);

// T5's logit for one (query, key) pair of one head: q·k + bias, unscaled (see above).
double t5_logit(const Eigen::Ref<const Eigen::VectorXd>& q, const Eigen::Ref<const Eigen::VectorXd>& k,
                double bias);

// ILLUSTRATIVE, not trained: a table to draw while no model's weights are loaded (the
// trained tables come from the weights module). Shape chosen to make the buckets visible,
// nothing more: for bucket b whose nearest relative position has distance n_b (its span's
// first |key − query|, 0 for an empty bucket), head h (0-based) of `heads` gets
//     bias = −((h + 1) / heads) · log(1 + n_b)                for keys before the query,
//     half of that                                              for keys after it (bidirectional),
// so nearer buckets get larger values, heads differ in how fast the bias falls, and the two
// directions differ. Marked illustrative. heads 1 ... 65536.
T5BiasTable t5_illustrative_bias_table(const T5BucketParams& params, long long heads);
// Column `head` (0-based) of that table, entry for entry, without the other heads (a view that
// draws one head of 1024 need not build them all).
Eigen::ArrayXd t5_illustrative_bias_column(const T5BucketParams& params, long long heads, long long head);

// A stack of illustrative tables: one (PerStack) or `layers` (PerLayer; layer l scales the
// table of t5_illustrative_bias_table by 1 / (1 + l / layers), so layers visibly differ).
T5StackBias t5_illustrative_stack(const T5BucketParams& params, long long heads, long long layers,
                                  T5BiasSharing sharing);

}  // namespace pe
