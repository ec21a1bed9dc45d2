// CSV of the permutation view: A's attention and B's, matched word for word, per method.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "export/teaching_data.hpp"
#include "export/view_data.hpp"
#include "pe/alibi.hpp"
#include "pe/token_attention.hpp"

namespace app {

// The demo's inputs for this state; the permutation view uses the same function.
pe::TokenAttentionParams permutation_params(const AppState& s) {
  pe::TokenAttentionParams p;
  p.dim = std::min<long long>(s.rope.head_dim, pe::kPermutationDemoMaxDim);
  p.theta = s.rope.theta;
  p.seed = s.seed;
  p.convention = s.rope.convention;
  p.alibi_slope = pe::alibi_slopes(s.heads)[std::clamp<long long>(s.head, 1, s.heads) - 1];
  p.learned_max_len = s.learned_max_len;
  p.learned_sigma = 0.02;
  return p;
}

namespace {
std::string exact(double v) { return csv_number(v, 17); }  // round-trip: the zero differences are exact
// Words may contain commas or quotes (they are free text).
std::string quoted(const std::string& w) {
  std::string out = "\"";
  for (char c : w) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}
}  // namespace

std::string permutation_csv(const AppState& s) {
  const std::string error = validate_state(s);
  if (!error.empty()) throw std::runtime_error(error);
  const auto a = split_tokens(s.tokens), b = split_tokens(s.tokens_b);
  const pe::PermutationDemo demo = pe::permutation_demo(a, b, permutation_params(s));
  std::ostringstream out;
  out << "method,query,query_word,key,key_word,b_query,b_key,weight_a,weight_b,abs_difference,note\n";
  for (const auto& m : demo.methods) {
    const char* name = pe::to_string(m.method);
    if (!m.error.empty()) {
      out << name << ",,,,,,,,,," << quoted(m.error) << "\n";
      continue;
    }
    const long long n = static_cast<long long>(a.size());
    const bool matched = m.check.is_reordering;
    for (long long i = 0; i < n; ++i)
      for (long long j = 0; j < n; ++j) {
        const double wa = m.a->weights(i, j);
        out << name << ',' << i << ',' << quoted(a[std::size_t(i)]) << ',' << j << ',' << quoted(a[std::size_t(j)]) << ',';
        if (matched) {
          const long long bi = m.check.b_index[std::size_t(i)], bj = m.check.b_index[std::size_t(j)];
          const double wb = m.b->weights(bi, bj);
          out << bi << ',' << bj << ',' << exact(wa) << ',' << exact(wb) << ',' << exact(std::abs(wa - wb)) << ",\n";
        } else {
          out << ",," << exact(wa) << ",,," << quoted(m.check.reason) << "\n";
        }
      }
  }
  return out.str();
}

}  // namespace app
