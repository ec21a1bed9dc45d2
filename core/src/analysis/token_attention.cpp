// Attention over words for the permutation demo (see token_attention.hpp).
#include "pe/analysis/token_attention.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>

#include "pe/base/errors.hpp"
#include "pe/encodings/learned.hpp"
#include "pe/encodings/sinusoidal.hpp"
#include "pe/base/text.hpp"

namespace pe {

namespace {

std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

// Stream numbers: embeddings use the word hash; these are the fixed matrices.
constexpr std::uint64_t kStreamWq = 1, kStreamWk = 2, kStreamWv = 3, kStreamLearned = 4, kStreamWords = 5;

// Sum independent of the order the terms came in (sorted, ascending).
double order_free_sum(std::vector<double>& terms) {
  std::sort(terms.begin(), terms.end());
  double total = 0;
  for (double t : terms) total += t;
  return total;
}

bool is_punct(unsigned char c) { return c < 128 && std::ispunct(c); }

}  // namespace

std::string normalize_word(std::string_view word) {
  std::size_t b = 0, e = word.size();
  while (b < e && is_punct(static_cast<unsigned char>(word[b]))) ++b;
  while (e > b && is_punct(static_cast<unsigned char>(word[e - 1]))) --e;
  return ascii_lower(std::string(b < e ? word.substr(b, e - b) : word));
}

Eigen::VectorXd word_embedding(std::string_view word, long long dim, std::uint64_t seed) {
  require_dim("dim", dim);
  return seeded_normal(dim, mix_seed(mix_seed(seed, kStreamWords), fnv1a(normalize_word(word))), 1.0);
}

TokenAttention token_attention(const std::vector<std::string>& words, AttentionMethod method,
                               const TokenAttentionParams& params) {
  const long long n = static_cast<long long>(words.size()), d = params.dim;
  require_in_range("words", n, 1, kMaxTokenAttentionWords);
  require_attention_inputs(method, d, params.theta, params.alibi_slope, params.learned_sigma);
  check_table_budget("token projections", d, d, 3 * sizeof(double));
  check_table_budget("token vectors", n, d, 4 * sizeof(double));

  // N(0, 1/d) keeps q, k, v entries ~ N(0, 1) for N(0, 1) inputs.
  const double w_sigma = 1.0 / std::sqrt(double(d));
  const MatrixD wq = seeded_matrix(d, d, mix_seed(params.seed, kStreamWq), w_sigma);
  const MatrixD wk = seeded_matrix(d, d, mix_seed(params.seed, kStreamWk), w_sigma);
  const MatrixD wv = seeded_matrix(d, d, mix_seed(params.seed, kStreamWv), w_sigma);

  // Position vectors added to the embedding (sinusoidal, learned); none otherwise.
  MatrixD added = MatrixD::Zero(n, d);
  if (method == AttentionMethod::Sinusoidal) {
    for (long long p = 0; p < n; ++p)
      for (long long c = 0; c < d; ++c) added(p, c) = sinusoidal_value(p, c, d, params.theta);
  } else if (method == AttentionMethod::Learned) {
    const LearnedEmbedding table(params.learned_max_len, d, params.learned_sigma, mix_seed(params.seed, kStreamLearned));
    for (long long p = 0; p < n; ++p) added.row(p) = table.at(p).cast<double>().transpose();  // throws past max_len
  }
  const bool additive = method == AttentionMethod::Sinusoidal || method == AttentionMethod::Learned;

  // Content projections once per distinct word: repeated words get bit-identical q, k, v.
  struct Projected { Eigen::RowVectorXd x, q, k, v; };
  std::map<std::string, Projected> by_word;
  MatrixD q(n, d), k(n, d), v(n, d);
  for (long long p = 0; p < n; ++p) {
    const std::string key = normalize_word(words[std::size_t(p)]);
    auto it = by_word.find(key);
    if (it == by_word.end()) {
      Projected pr;
      pr.x = word_embedding(key, d, params.seed).transpose();
      pr.q = pr.x * wq;
      pr.k = pr.x * wk;
      pr.v = pr.x * wv;
      it = by_word.emplace(key, std::move(pr)).first;
    }
    if (additive) {
      const Eigen::RowVectorXd x = it->second.x + added.row(p);
      q.row(p) = x * wq;
      k.row(p) = x * wk;
      v.row(p) = x * wv;
    } else {
      q.row(p) = it->second.q;
      k.row(p) = it->second.k;
      v.row(p) = it->second.v;
    }
  }
  if (method == AttentionMethod::Rope) {
    const Eigen::ArrayXd inv_freq =
        params.rope_inv_freq.size() > 0 ? params.rope_inv_freq : inverse_frequencies(d, params.theta);
    const Eigen::ArrayXd positions = Eigen::ArrayXd::LinSpaced(n, 0.0, double(n - 1));
    q = apply_rope(q, positions, inv_freq, params.convention);
    k = apply_rope(k, positions, inv_freq, params.convention);
  }

  TokenAttention out;
  out.words = words;
  out.scores.resize(n, n);
  out.weights.resize(n, n);
  const double inv_sqrt_d = 1.0 / std::sqrt(double(d));
  for (long long i = 0; i < n; ++i)
    for (long long j = 0; j < n; ++j) {
      double s = 0;
      for (long long c = 0; c < d; ++c) s += q(i, c) * k(j, c);  // fixed order over dims
      s *= inv_sqrt_d;
      if (method == AttentionMethod::Alibi) s -= params.alibi_slope * double(std::abs(i - j));
      out.scores(i, j) = s;
    }
  std::vector<double> terms(std::size_t(n), 0.0);
  for (long long i = 0; i < n; ++i) {
    const double peak = out.scores.row(i).maxCoeff();  // subtracted so exp cannot overflow
    for (long long j = 0; j < n; ++j) terms[std::size_t(j)] = std::exp(out.scores(i, j) - peak);
    for (long long j = 0; j < n; ++j) out.weights(i, j) = std::exp(out.scores(i, j) - peak);
    const double total = order_free_sum(terms);
    out.weights.row(i) /= total;
  }
  out.outputs.resize(n, d);
  for (long long i = 0; i < n; ++i)
    for (long long c = 0; c < d; ++c) {
      for (long long j = 0; j < n; ++j) terms[std::size_t(j)] = out.weights(i, j) * v(j, c);
      out.outputs(i, c) = order_free_sum(terms);
    }
  return out;
}

PermutationCheck match_words(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  PermutationCheck check;
  if (a.size() != b.size()) {
    check.reason = "B is not a reordering of A: A has " + std::to_string(a.size()) + " words, B has " +
                   std::to_string(b.size());
    return check;
  }
  // Queue of B's positions per word, in order: the k-th occurrence in A takes the k-th in B.
  std::map<std::string, std::vector<long long>> positions;
  for (std::size_t j = b.size(); j-- > 0;) positions[normalize_word(b[j])].push_back(static_cast<long long>(j));
  check.b_index.resize(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    auto it = positions.find(normalize_word(a[i]));
    if (it == positions.end() || it->second.empty()) {
      check.b_index.clear();
      check.reason = "B is not a reordering of A: \"" + a[i] + "\" occurs more often in A than in B";
      return check;
    }
    check.b_index[i] = it->second.back();
    it->second.pop_back();
  }
  check.is_reordering = true;
  return check;
}

PermutationCheck permutation_check(const TokenAttention& a, const TokenAttention& b) {
  PermutationCheck check = match_words(a.words, b.words);
  if (!check.is_reordering) return check;
  const std::size_t n = a.words.size();
  check.output_difference.assign(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    const long long bi = check.b_index[i];
    for (std::size_t j = 0; j < n; ++j) {
      const double diff = std::abs(a.weights(Eigen::Index(i), Eigen::Index(j)) - b.weights(bi, check.b_index[j]));
      check.max_weight_difference = std::max(check.max_weight_difference, diff);
    }
    double out_diff = 0;
    for (Eigen::Index c = 0; c < a.outputs.cols(); ++c)
      out_diff = std::max(out_diff, std::abs(a.outputs(Eigen::Index(i), c) - b.outputs(bi, c)));
    check.output_difference[i] = out_diff;
    check.max_output_difference = std::max(check.max_output_difference, out_diff);
  }
  return check;
}

PermutationDemo permutation_demo(const std::vector<std::string>& a, const std::vector<std::string>& b,
                                 const TokenAttentionParams& params) {
  PermutationDemo demo;
  demo.words = match_words(a, b);
  constexpr std::array<AttentionMethod, 5> kMethods = {AttentionMethod::NoPosition, AttentionMethod::Sinusoidal,
                                                       AttentionMethod::Learned, AttentionMethod::Rope,
                                                       AttentionMethod::Alibi};
  for (std::size_t m = 0; m < kMethods.size(); ++m) {
    PermutationDemo::Method& r = demo.methods[m];
    r.method = kMethods[m];
    try {
      r.a = token_attention(a, r.method, params);
      r.b = token_attention(b, r.method, params);
      r.check = permutation_check(*r.a, *r.b);
    } catch (const std::exception& e) {
      r.a.reset();
      r.b.reset();
      r.error = e.what();
      r.check = demo.words;
    }
  }
  return demo;
}

}  // namespace pe
