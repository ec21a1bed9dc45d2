// CoPE: Golovneva et al. 2024, §3 (gates, counted positions, interpolated position
// embeddings) and the appendix code (flip-cumsum-flip of the gates, clamp to npos_max − 1,
// z[⌈p⌉]·w + z[⌊p⌋]·(1 − w)).
#include "pe/relative/cope.hpp"

#include <algorithm>
#include <cmath>

#include "pe/base/errors.hpp"

namespace pe {

namespace {

bool is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// Letters, digits, apostrophes and every byte of a multi-byte UTF-8 character belong to words.
bool is_word_byte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '\'' || c >= 0x80;
}

bool is_word(const std::string& token) { return !token.empty() && is_word_byte(static_cast<unsigned char>(token[0])); }

bool is_sentence_end(const std::string& token) { return token == "." || token == "!" || token == "?"; }

void require_gate(double g) {
  if (!std::isfinite(g) || g < 0.0 || g > 1.0)
    throw InvalidArgument("gates", format_double(g), "CoPE's gates are sigmoids: each in [0, 1]");
}

}  // namespace

std::vector<std::string> cope_tokens(const std::string& text) {
  std::vector<std::string> tokens;
  std::string word;
  auto flush = [&] {
    if (!word.empty()) tokens.push_back(std::move(word));
    word.clear();
  };
  for (const char ch : text) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (is_word_byte(c)) {
      word += ch;
      continue;
    }
    flush();
    if (!is_space(c)) tokens.emplace_back(1, ch);
  }
  flush();
  return tokens;
}

Eigen::ArrayXd cope_gates(const std::vector<std::string>& tokens, CopeGatePattern pattern) {
  Eigen::ArrayXd gates(static_cast<Eigen::Index>(tokens.size()));
  for (std::size_t t = 0; t < tokens.size(); ++t) {
    bool counted = true;
    switch (pattern) {
      case CopeGatePattern::EveryToken: counted = true; break;
      case CopeGatePattern::SentenceEnds: counted = is_sentence_end(tokens[t]); break;
      case CopeGatePattern::Words: counted = is_word(tokens[t]); break;
      case CopeGatePattern::Punctuation: counted = !is_word(tokens[t]); break;
    }
    gates[static_cast<Eigen::Index>(t)] = counted ? 1.0 : 0.0;
  }
  return gates;
}

TableD cope_positions(const Eigen::Ref<const Eigen::ArrayXd>& key_gates) {
  const long long n = key_gates.size();
  check_table_budget("CoPE positions", n, n, sizeof(double));
  for (long long t = 0; t < n; ++t) require_gate(key_gates[t]);
  TableD p = TableD::Zero(n, n);
  for (long long i = 0; i < n; ++i) {
    // p_ij = Σ_{t=j}^{i} g_t: a suffix sum from the query back (gates.flip.cumsum.flip).
    double sum = 0.0;
    for (long long j = i; j >= 0; --j) {
      sum += key_gates[j];
      p(i, j) = sum;
    }
  }
  return p;
}

TableD cope_positions_per_query(const TableD& gates) {
  if (gates.rows() != gates.cols())
    throw InvalidArgument("gates", format_integer(gates.rows()) + " x " + format_integer(gates.cols()),
                          "CoPE's gates are a square query × key table");
  const long long n = gates.rows();
  check_table_budget("CoPE positions", n, n, sizeof(double));
  TableD p = TableD::Zero(n, n);
  for (long long i = 0; i < n; ++i) {
    double sum = 0.0;
    for (long long j = i; j >= 0; --j) {  // keys after the query are masked: σ(−∞) = 0, nothing counted
      require_gate(gates(i, j));
      sum += gates(i, j);
      p(i, j) = sum;
    }
  }
  return p;
}

TableD cope_clamp_positions(const TableD& positions, long long npos_max) {
  require_in_range("cope_npos_max", npos_max, 1, kMaxCopePositions);
  return positions.min(static_cast<double>(npos_max - 1));
}

double cope_interpolate(double position, const Eigen::Ref<const Eigen::ArrayXd>& z) {
  require_in_range("cope_npos_max", static_cast<long long>(z.size()), 1, kMaxCopePositions);
  if (!std::isfinite(position) || position < 0.0)
    throw InvalidArgument("position", format_double(position), "a CoPE position is a finite count >= 0");
  const double p = std::min(position, static_cast<double>(z.size() - 1));  // pos.clamp(max=npos_max − 1)
  const double lo = std::floor(p), hi = std::ceil(p);
  const double w = p - lo;
  return z[static_cast<Eigen::Index>(hi)] * w + z[static_cast<Eigen::Index>(lo)] * (1.0 - w);
}

CopeCounts cope_count(const std::string& text, CopeGatePattern pattern, long long npos_max) {
  require_in_range("cope_npos_max", npos_max, 1, kMaxCopePositions);
  CopeCounts c;
  c.tokens = cope_tokens(text);
  const long long n = static_cast<long long>(c.tokens.size());
  if (n < 1 || n > kMaxCopeTokens)
    throw InvalidArgument("cope_text", format_integer(n) + " tokens",
                          "CoPE's text needs 1 ... " + format_integer(kMaxCopeTokens) + " tokens");
  c.gates = cope_gates(c.tokens, pattern);
  c.positions = cope_clamp_positions(cope_positions(c.gates), npos_max);
  c.npos_max = npos_max;
  return c;
}

}  // namespace pe
