#include "export/view_data.hpp"
#include "export/teaching_data.hpp"

#include <cmath>
#include <cstdio>
#include <numbers>
#include <sstream>
#include <vector>

#include "pe/alibi.hpp"
#include "pe/analysis.hpp"
#include "pe/errors.hpp"
#include "pe/extrapolation.hpp"
#include "pe/scaling.hpp"
#include "views/scaling_methods.hpp"
#include "pe/learned.hpp"
#include "pe/rope.hpp"
#include "pe/sinusoidal.hpp"

namespace app {
namespace {

// Positions 0 ... length-1, or kMaxCsvRows of them evenly spaced.
std::vector<long long> sampled_positions(long long length, std::ostringstream& out) {
  std::vector<long long> p;
  if (length <= kMaxCsvRows) {
    for (long long i = 0; i < length; ++i) p.push_back(i);
  } else {
    out << "# " << length << " positions sampled to " << kMaxCsvRows << " rows\n";
    for (long long i = 0; i < kMaxCsvRows; ++i) p.push_back(std::llround(double(i) * double(length - 1) / double(kMaxCsvRows - 1)));
  }
  return p;
}

}  // namespace

std::string csv_number(double v, int significant_digits) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.*g", significant_digits, v);
  return buf;
}

std::string view_csv(const std::string& view, const AppState& s, const Derived& d) {
  if (!d.error.empty()) throw std::runtime_error(d.error);
  std::ostringstream out;
  const auto& inv = d.rope.inv_freq;
  if (view == "sinusoidal") {
    const long long dim = s.rope.head_dim;
    const auto positions = sampled_positions(s.length, out);  // writes its note first
    out << "position";
    for (long long j = 0; j < dim; ++j) out << ",dim" << j;
    out << "\n";
    for (long long p : positions) {
      out << p;
      for (long long j = 0; j < dim; ++j) out << ',' << csv_number(pe::sinusoidal_value(p, j, dim, s.rope.theta));
      out << "\n";
    }
  } else if (view == "rope-cos" || view == "rope-sin") {
    const bool cosine = view == "rope-cos";
    const auto positions = sampled_positions(s.length, out);  // writes its note first
    out << "position";
    for (Eigen::Index i = 0; i < inv.size(); ++i) out << ",pair" << i;
    out << "\n";
    for (long long p : positions) {
      out << p;
      for (Eigen::Index i = 0; i < inv.size(); ++i) out << ',' << csv_number(cosine ? std::cos(double(p) * inv[i]) : std::sin(double(p) * inv[i]));
      out << "\n";
    }
  } else if (view == "rope-spectrum") {
    const Eigen::ArrayXd lambda = pe::wavelengths(inv), turns = pe::full_turns(inv, s.length);
    out << "pair,inv_freq,original_inv_freq,wavelength,full_turns_in_length\n";
    for (Eigen::Index i = 0; i < inv.size(); ++i)
      out << i << ',' << csv_number(inv[i]) << ',' << csv_number(d.rope.original_inv_freq.size() == inv.size() ? d.rope.original_inv_freq[i] : inv[i])
          << ',' << csv_number(lambda[i]) << ',' << csv_number(turns[i]) << "\n";
  } else if (view == "clock-hands") {
    const std::vector<double> v = effective_vector(s);
    const Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(v.data(), Eigen::Index(v.size()));
    const Eigen::VectorXd r = pe::apply_rope(x, double(s.position), inv, s.rope.convention);
    out << "# position " << s.position << ", convention " << pe::to_string(s.rope.convention) << "\n";
    out << "pair,dim_a,dim_b,inv_freq,angle_rad,angle_deg,x,y,x_rotated,y_rotated,norm\n";
    for (Eigen::Index i = 0; i < inv.size(); ++i) {
      const auto [a, b] = pe::pair_dims(s.rope.convention, d.rope.rotary_dim, i);
      const double angle = double(s.position) * inv[i];
      out << i << ',' << a << ',' << b << ',' << csv_number(inv[i]) << ',' << csv_number(angle) << ',' << csv_number(angle * 180 / std::numbers::pi) << ','
          << csv_number(x[a]) << ',' << csv_number(x[b]) << ',' << csv_number(r[a]) << ',' << csv_number(r[b]) << ',' << csv_number(std::hypot(r[a], r[b])) << "\n";
    }
  } else if (view == "relative-score") {
    std::ostringstream note;
    const auto ps = sampled_positions(s.length, note);
    Eigen::ArrayXd deltas(Eigen::Index(ps.size()));
    for (std::size_t k = 0; k < ps.size(); ++k) deltas[Eigen::Index(k)] = double(ps[k]);
    // The view's curves (scores / d) and the unnormalised bound, in one cos/sin pass.
    const long long pairs = inv.size();
    const Eigen::ArrayXXd curves = pe::relative_score_curves(
        {pe::choice_coefficients(pe::VectorChoice::Identical, pairs, s.seed),
         pe::choice_coefficients(pe::VectorChoice::RandomPair, pairs, s.seed),
         pe::choice_coefficients(pe::VectorChoice::MeanOfIdentical, pairs, s.seed, s.samples),
         pe::choice_coefficients(pe::VectorChoice::MeanOfRandomPairs, pairs, s.seed, s.samples)},
        inv, deltas, /*decay_bound=*/true);
    const double dim = double(2 * pairs);
    out << note.str() << "delta,identical,random_pair,mean_identical,mean_random_pairs,decay_bound\n";
    for (Eigen::Index k = 0; k < deltas.size(); ++k) {
      out << csv_number(deltas[k]);
      for (int c = 0; c < 4; ++c) out << ',' << csv_number(curves(k, c) / dim);
      out << ',' << csv_number(curves(k, 4)) << "\n";
    }
  } else if (view == "learned") {
    const pe::LearnedEmbedding table(s.learned_max_len, s.rope.head_dim, 0.02, s.seed);
    const auto positions = sampled_positions(table.max_len(), out);  // writes its note first
    out << "position";
    for (long long j = 0; j < s.rope.head_dim; ++j) out << ",dim" << j;
    out << "\n";
    for (long long p : positions) {
      const Eigen::VectorXf row = table.at(p);
      out << p;
      for (Eigen::Index j = 0; j < row.size(); ++j) out << ',' << csv_number(row[j]);
      out << "\n";
    }
  } else if (view == "common-mistake") {
    const std::vector<double> v = effective_vector(s);
    const Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(v.data(), Eigen::Index(v.size()));
    if (2 * inv.size() != x.size()) throw std::runtime_error("common-mistake needs a fully rotary configuration");
    out << "position,rope_norm_ratio,seed004_norm_ratio\n";
    for (long long p = 0; p < std::clamp<long long>(s.length, 2, 512); ++p)
      out << p << ',' << csv_number(pe::apply_rope(x, double(p), inv, pe::PairConvention::Interleaved).norm() / x.norm()) << ','
          << csv_number(pe::apply_seed004_mixed_tables(x, double(p), inv).norm() / x.norm()) << "\n";
  } else if (view == "alibi") {
    const Eigen::ArrayXd slopes = pe::alibi_slopes(s.heads);
    out << "head,slope\n";
    for (Eigen::Index h = 0; h < slopes.size(); ++h) out << h + 1 << ',' << csv_number(slopes[h]) << "\n";
  } else if (view == "attention") {
    const pe::AttentionParams params = attention_params(s, d);
    out << "method,query,key,weight\n";
    for (pe::AttentionMethod m : kAttentionMethods) {
      const pe::TableF w = pe::attention_pattern(m, params);
      for (Eigen::Index i = 0; i < w.rows(); ++i)
        for (Eigen::Index j = 0; j <= i; ++j) out << pe::to_string(m) << ',' << i << ',' << j << ',' << csv_number(w(i, j)) << "\n";
    }
  } else if (view == "scaling" || view == "extrapolation") {
    // Per pair: every method's θ'_i (scaling) or unseen-angle fraction at L (extrapolation).
    const auto& methods = all_method_frequencies(s.rope, s.length);
    const long long train = s.rope.original_max_position_embeddings();
    out << "# " << (view == "scaling" ? "inv_freq per method" : "fraction of positions < L at an unseen angle")
        << ", L = " << s.length << ", L_orig = " << train << "\n";
    out << "pair,original_inv_freq";
    std::vector<const MethodFrequencies*> ok;
    std::vector<Eigen::ArrayXd> columns;
    for (const auto& m : methods) {
      if (!m.error.empty() || m.freqs.inv_freq.size() != inv.size()) continue;
      ok.push_back(&m);
      out << ',' << m.label << (view == "scaling" ? "" : " unseen");
      columns.push_back(view == "scaling"
                            ? m.freqs.inv_freq
                            : pe::extrapolation_report(methods.front().freqs.inv_freq, train, m.freqs.inv_freq, s.length).unseen_fraction);
    }
    out << "\n";
    for (Eigen::Index i = 0; i < inv.size(); ++i) {
      out << i << ',' << csv_number(d.rope.original_inv_freq[i]);
      for (const auto& c : columns) out << ',' << csv_number(c[i]);
      out << "\n";
    }
  } else if (view == "compare") {
    const pe::ScaledFrequencies b = pe::scaled_frequencies(s.compare_b, s.length);
    out << "# A: " << (s.rope.title.empty() ? s.rope.name : s.rope.title) << "; B: "
        << (s.compare_b.title.empty() ? s.compare_b.name : s.compare_b.title) << "\n";
    out << "pair,inv_freq_a,inv_freq_b,wavelength_a,wavelength_b\n";
    for (Eigen::Index i = 0; i < std::max(inv.size(), b.inv_freq.size()); ++i) {
      out << i << ',';
      if (i < inv.size()) out << csv_number(inv[i]);
      out << ',';
      if (i < b.inv_freq.size()) out << csv_number(b.inv_freq[i]);
      out << ',';
      if (i < inv.size()) out << csv_number(2 * std::numbers::pi / inv[i]);
      out << ',';
      if (i < b.inv_freq.size()) out << csv_number(2 * std::numbers::pi / b.inv_freq[i]);
      out << "\n";
    }
  } else if (view == "walkthrough") {
    out << walkthrough_csv(s);
  } else if (view == "conventions") {
    out << conventions_csv(s, d);
  } else if (view == "theta-lesson") {
    out << theta_lesson_csv(s);
  } else if (view == "permutation") {
    out << permutation_csv(s);
  } else if (view == "comparison") {
    out << comparison_csv(s, d);
  } else {
    throw pe::InvalidArgument("view", view, "a view with data (see pe-viz --list-views)");
  }
  return out.str();
}

}  // namespace app
