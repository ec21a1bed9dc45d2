#pragma once
// Attention over real words, for the permutation demo (the classic word-order example: "the
// dog bit the man" vs "the man bit the dog"). Each distinct word has one seeded embedding (the same
// vector wherever it occurs, in either sentence); q, k, v come from seeded random
// projections; then one of the position methods is applied.
//
// No causal mask: a causal mask is itself position information (token i sees only
// tokens before it), so with it attention would not be permutation-equivariant even
// without any encoding. ALiBi accordingly uses the symmetric bias −slope·|i − j|.
//
// Sums whose terms a reordering permutes (softmax normaliser, outputs Σ_j a_ij v_j) are
// taken over the terms in sorted order, so they do not depend on the order of the words:
// without positions, B's matrix is then exactly A's with rows and columns permuted
// (bitwise, not merely to rounding).
#include "pe/analysis/module_guard.hpp"
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pe/analysis/analysis.hpp"
#include "pe/encodings/rope.hpp"
#include "pe/base/types.hpp"

namespace pe {

struct TokenAttentionParams {
  long long dim = 64;             // d of the embeddings, q, k and v
  double theta = 10000.0;         // sinusoidal base, and RoPE's when rope_inv_freq is empty
  std::uint64_t seed = 0;         // embeddings, projections and the learned table
  Eigen::ArrayXd rope_inv_freq;   // empty: θ^(−2i/d); fewer than d/2: partial rotary
  PairConvention convention = PairConvention::Interleaved;
  double alibi_slope = 0.5;
  long long learned_max_len = 64; // rows of the learned table: longer sentences have no row
  double learned_sigma = 0.02;    // N(0, σ) as at initialisation (BERT, GPT-2)
};

inline constexpr long long kMaxTokenAttentionWords = 4096;
// The permutation view uses d = min(head_dim, this): the demo is about order, not size,
// and d × d projections stay cheap.
inline constexpr long long kPermutationDemoMaxDim = 64;

// The key a word's embedding is looked up by: ASCII lower case, surrounding ASCII
// punctuation removed ("The" and "dog." share "the" and "dog"); a word of punctuation
// only keeps itself.
std::string normalize_word(std::string_view word);

// The seeded N(0, 1) embedding of normalize_word(word): a stable FNV-1a hash of the
// text mixed with the seed (not std::hash, which differs between standard libraries).
Eigen::VectorXd word_embedding(std::string_view word, long long dim, std::uint64_t seed);

struct TokenAttention {
  std::vector<std::string> words;  // as given
  TableD weights;                  // n × n softmax(QKᵀ/√d [+ bias]); row i = query i
  TableD scores;                   // n × n logits before the softmax
  MatrixD outputs;                 // n × d: row i = Σ_j weights(i, j)·v_j
};

// Throws InvalidArgument (dim, theta, words, slope, sigma; RoPE needs an even dim) and
// PositionOutOfRange for the learned method when the sentence is longer than
// learned_max_len (that table has no row for the position).
TokenAttention token_attention(const std::vector<std::string>& words, AttentionMethod method,
                               const TokenAttentionParams& params);

struct PermutationCheck {
  bool is_reordering = false;
  std::string reason;                // why B is not a reordering of A (empty when it is)
  // b_index[i]: B's position of A's word i (the k-th occurrence of a word in A is matched
  // with its k-th occurrence in B).
  std::vector<long long> b_index;
  double max_weight_difference = 0;  // max over i, j of |A(i, j) − B(b_i, b_j)|
  double max_output_difference = 0;  // max over i, c of |outA(i, c) − outB(b_i, c)|
  std::vector<double> output_difference;  // per A word: max over c
};

// Matches the words only (normalize_word): is B a reordering of A, and by which mapping.
PermutationCheck match_words(const std::vector<std::string>& a, const std::vector<std::string>& b);
// The mapping plus the differences between A's attention and B's, permuted back.
PermutationCheck permutation_check(const TokenAttention& a, const TokenAttention& b);

// Both sentences under every method (none, sinusoidal, learned, RoPE, ALiBi). A method
// that cannot run (learned past max_len, RoPE at odd d) has its error text instead.
struct PermutationDemo {
  struct Method {
    AttentionMethod method = AttentionMethod::NoPosition;
    std::optional<TokenAttention> a, b;
    std::string error;
    PermutationCheck check;  // differences only when both ran and B reorders A
  };
  std::array<Method, 5> methods;
  PermutationCheck words;    // the word matching alone
};
PermutationDemo permutation_demo(const std::vector<std::string>& a, const std::vector<std::string>& b,
                                 const TokenAttentionParams& params);

}  // namespace pe
