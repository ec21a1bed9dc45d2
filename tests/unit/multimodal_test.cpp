// Multimodal RoPE (issue 12). Golden values are independent of pe::multimodal:
//  - position ids written out by hand from Hugging Face's get_rope_index (the examples in
//    its docstrings among them);
//  - rotations recomputed here the way the reference code builds its tensors (cos/sin
//    tables of the full head, rotate_half or complex pairs), in double;
//  - scores as dot products of rotated vectors.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "pe/base/errors.hpp"
#include "pe/multimodal/multimodal.hpp"

namespace {

using pe::AxisPosition;
using pe::MultiAxisLayout;
using pe::PromptItemKind;
using pe::RopeIndexFamily;
using pe::RopeIndexVersion;
using Vec = std::vector<long long>;

std::string rejected(const std::function<void()>& f) {
  try {
    f();
  } catch (const pe::InvalidArgument& e) {
    return e.parameter();
  }
  return "(accepted)";
}

Eigen::VectorXd random_vector(long long n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  Eigen::VectorXd v(n);
  for (long long i = 0; i < n; ++i) v[i] = normal(rng);
  return v;
}

double rel(double a, double b) { return std::abs(a - b) / std::max({std::abs(a), std::abs(b), 1e-300}); }

void expect_vectors_near(const Eigen::VectorXd& got, const Eigen::VectorXd& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  const double scale = want.cwiseAbs().maxCoeff();
  for (Eigen::Index i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol * scale) << "dim " << i;
}

// rotate_half convention, as transformers applies a cos/sin row of the full head:
// q·cos + rotate_half(q)·sin with rotate_half(q) = cat(−q2, q1).
Eigen::VectorXd apply_half_split(const Eigen::VectorXd& q, const std::vector<double>& angle_per_dim) {
  const long long d = q.size(), h = d / 2;
  Eigen::VectorXd out(d);
  for (long long j = 0; j < d; ++j) {
    const double rot = j < h ? -q[j + h] : q[j - h];
    out[j] = q[j] * std::cos(angle_per_dim[j]) + rot * std::sin(angle_per_dim[j]);
  }
  return out;
}

// Complex pairs (2k, 2k+1) times e^{i·angle_k} (Llama 4's view_as_complex, FLUX's unbind(-1)).
Eigen::VectorXd apply_complex_pairs(const Eigen::VectorXd& q, const std::vector<double>& angle_per_pair) {
  Eigen::VectorXd out = q;
  for (std::size_t k = 0; k < angle_per_pair.size(); ++k) {
    const double re = q[2 * k], im = q[2 * k + 1], c = std::cos(angle_per_pair[k]), s = std::sin(angle_per_pair[k]);
    out[2 * k] = re * c - im * s;
    out[2 * k + 1] = re * s + im * c;
  }
  return out;
}

std::vector<double> ladder(double theta, long long count, long long dim) {
  std::vector<double> f;
  for (long long j = 0; j < count; ++j) f.push_back(1.0 / std::pow(theta, 2.0 * j / dim));
  return f;
}

// --- layouts --------------------------------------------------------------------------

TEST(MultimodalLayout, MropeSectionsAreContiguous) {
  const Eigen::ArrayXd inv = pe::inverse_frequencies(128, 1e6);
  const MultiAxisLayout l = pe::mrope_layout(inv, {16, 24, 24}, false);
  ASSERT_EQ(l.pairs(), 64);
  for (int i = 0; i < 64; ++i) {
    EXPECT_EQ(l.axis_of_pair[i], i < 16 ? 0 : (i < 40 ? 1 : 2)) << i;
    EXPECT_EQ(l.inv_freq_of_pair[i], inv[i]) << "M-RoPE keeps the 1D ladder";
  }
  EXPECT_EQ(l.pairs_per_axis(), (std::array<long long, 3>{16, 24, 24}));
  EXPECT_EQ(l.convention, pe::PairConvention::HalfSplit);
}

TEST(MultimodalLayout, InterleavedMropeCyclesAxesAndEndsOnT) {
  const Eigen::ArrayXd inv = pe::inverse_frequencies(128, 5e6);
  const MultiAxisLayout l = pe::mrope_layout(inv, {24, 20, 20}, true);
  // Written out: t h w t h w ... for pairs 0 ... 59, then 60 ... 63 stay t.
  for (int i = 0; i < 60; ++i) EXPECT_EQ(l.axis_of_pair[i], i % 3) << i;
  for (int i = 60; i < 64; ++i) EXPECT_EQ(l.axis_of_pair[i], 0) << i;
  EXPECT_EQ(l.pairs_per_axis(), (std::array<long long, 3>{24, 20, 20}));
  EXPECT_EQ(l.scheme, pe::MultiAxisScheme::MRopeInterleaved);
}

TEST(MultimodalLayout, Ernie3DAlternatesHAndWThenT) {
  const Eigen::ArrayXd inv = pe::inverse_frequencies(128, 5e5);
  const MultiAxisLayout l = pe::mrope_layout(inv, {20, 22, 22}, pe::MultiAxisScheme::Ernie3D);
  // Written out: h w h w ... for pairs 0 ... 43, then t for 44 ... 63, the 1D ladder kept.
  for (int i = 0; i < 44; ++i) EXPECT_EQ(l.axis_of_pair[i], i % 2 == 0 ? 1 : 2) << i;
  for (int i = 44; i < 64; ++i) EXPECT_EQ(l.axis_of_pair[i], 0) << i;
  for (int i = 0; i < 64; ++i) EXPECT_EQ(l.inv_freq_of_pair[i], inv[i]) << i;
  EXPECT_EQ(l.convention, pe::PairConvention::Interleaved);
  EXPECT_TRUE(pe::is_language_mrope(l.scheme));
  EXPECT_FALSE(pe::is_language_mrope(pe::MultiAxisScheme::Axial));
  EXPECT_EQ(rejected([&] { pe::mrope_layout(inv, {20, 24, 20}, pe::MultiAxisScheme::Ernie3D); }), "sections") << "h ≠ w";
  EXPECT_EQ(rejected([&] { pe::mrope_layout(inv, {20, 22, 20}, pe::MultiAxisScheme::Ernie3D); }), "sections") << "sum ≠ 64";
  // The other schemes give what the bool overload gives.
  EXPECT_TRUE((pe::mrope_layout(inv, {24, 20, 20}, pe::MultiAxisScheme::MRopeInterleaved).axis_of_pair ==
               pe::mrope_layout(inv, {24, 20, 20}, true).axis_of_pair)
                  .all());
}

TEST(MultimodalLayout, VisionVariantsGiveHAndWTheirOwnFrequencies) {
  // Qwen2-VL vision, head_dim 80: VisionRotaryEmbedding(40) → 20 rungs 10000^(−2j/40),
  // pairs 0-19 rows, 20-39 columns, the same rungs.
  const MultiAxisLayout q = pe::vision_2d_layout(pe::Vision2DVariant::Qwen2VL, 80, 10000);
  const auto f40 = ladder(10000, 20, 40);
  ASSERT_EQ(q.pairs(), 40);
  for (int i = 0; i < 40; ++i) {
    EXPECT_EQ(q.axis_of_pair[i], i < 20 ? 1 : 2);
    EXPECT_LE(rel(q.inv_freq_of_pair[i], f40[i % 20]), 1e-15);
  }
  // Pixtral, head_dim 64: one ladder of 32 over 64; rows even rungs, columns odd rungs.
  const MultiAxisLayout p = pe::vision_2d_layout(pe::Vision2DVariant::Pixtral, 64, 10000);
  const auto f64 = ladder(10000, 32, 64);
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(p.axis_of_pair[i], i < 16 ? 1 : 2);
    EXPECT_LE(rel(p.inv_freq_of_pair[i], i < 16 ? f64[2 * i] : f64[2 * (i - 16) + 1]), 1e-15) << i;
  }
  // Llama 4, head_dim 88: columns (x) first, then rows (y), rungs 10000^(−2j/44).
  const MultiAxisLayout l = pe::vision_2d_layout(pe::Vision2DVariant::Llama4, 88, 10000);
  const auto f44 = ladder(10000, 22, 44);
  for (int i = 0; i < 44; ++i) {
    EXPECT_EQ(l.axis_of_pair[i], i < 22 ? 2 : 1);
    EXPECT_LE(rel(l.inv_freq_of_pair[i], f44[i % 22]), 1e-15);
  }
  EXPECT_EQ(l.convention, pe::PairConvention::Interleaved);
  EXPECT_EQ(l.position_offset, 1.0);
}

TEST(MultimodalLayout, AxialHasALadderPerAxis) {
  const MultiAxisLayout l = pe::axial_layout({16, 56, 56}, 10000);
  ASSERT_EQ(l.pairs(), 64);
  const auto f16 = ladder(10000, 8, 16), f56 = ladder(10000, 28, 56);
  for (int i = 0; i < 64; ++i) {
    const int axis = i < 8 ? 0 : (i < 36 ? 1 : 2);
    EXPECT_EQ(l.axis_of_pair[i], axis);
    const double want = axis == 0 ? f16[i] : f56[axis == 1 ? i - 8 : i - 36];
    EXPECT_LE(rel(l.inv_freq_of_pair[i], want), 1e-15) << i;
  }
  EXPECT_EQ(l.convention, pe::PairConvention::Interleaved);
}

TEST(MultimodalLayout, ValidationNamesTheParameter) {
  const Eigen::ArrayXd inv = pe::inverse_frequencies(128, 1e6);
  EXPECT_EQ(rejected([&] { pe::mrope_layout(inv, {16, 24, 20}, false); }), "sections");
  EXPECT_EQ(rejected([&] { pe::mrope_layout(inv, {16, 48}, false); }), "sections");
  EXPECT_EQ(rejected([&] { pe::mrope_layout(inv, {-8, 36, 36}, false); }), "sections[0]");
  EXPECT_EQ(rejected([&] { pe::vision_2d_layout(pe::Vision2DVariant::Qwen2VL, 90, 10000); }), "head_dim");
  EXPECT_EQ(rejected([&] { pe::vision_2d_layout(pe::Vision2DVariant::Pixtral, 64, 1.0); }), "theta");
  EXPECT_EQ(rejected([&] { pe::axial_layout({16, 55, 56}, 10000); }), "axes_dims[1]");
  EXPECT_EQ(rejected([&] { pe::axial_layout({}, 10000); }), "axes_dims");
  // The GGUF helper's entry: llama.cpp's four sections with an unused last one.
  const auto m = pe::multi_axis_from_sections(pe::MultiAxisScheme::MRope, {16, 24, 24, 0}, 64);
  EXPECT_EQ(m.sections, (Vec{16, 24, 24}));
  EXPECT_EQ(rejected([] { pe::multi_axis_from_sections(pe::MultiAxisScheme::MRope, {16, 24, 24}, 60); }), "sections");
  const auto v = pe::multi_axis_from_sections(pe::MultiAxisScheme::Vision2D, {20, 20}, 40);
  EXPECT_EQ(v.sections, (Vec{0, 20, 20}));
  EXPECT_EQ(rejected([] { pe::multi_axis_from_sections(pe::MultiAxisScheme::Vision2D, {10, 30}, 40); }), "sections");
}

// --- rotation against the reference construction --------------------------------------

TEST(MultimodalRotation, MropeMatchesSplitOfCatFreqs) {
  // apply_multimodal_rotary_pos_emb: cos of shape (3, 128) from emb = cat(freqs, freqs) per
  // axis; split into mrope_section * 2 = [16,24,24,16,24,24], chunk k from axis k % 3.
  const Eigen::ArrayXd inv = pe::inverse_frequencies(128, 1e6);
  const MultiAxisLayout l = pe::mrope_layout(inv, {16, 24, 24}, false);
  const Eigen::VectorXd q = random_vector(128, 1);
  const AxisPosition pos{7, 12, 31};
  const long long split[6] = {16, 24, 24, 16, 24, 24};
  std::vector<double> angle(128);
  long long d = 0;
  for (int k = 0; k < 6; ++k)
    for (long long j = 0; j < split[k]; ++j, ++d) angle[d] = pos[k % 3] * inv[d % 64];
  expect_vectors_near(pe::apply_multi_axis_rope(q, l, pos), apply_half_split(q, angle), 1e-12);
}

TEST(MultimodalRotation, InterleavedMropeMatchesApplyInterleavedMrope) {
  const Eigen::ArrayXd inv = pe::inverse_frequencies(128, 5e6);
  const MultiAxisLayout l = pe::mrope_layout(inv, {24, 20, 20}, true);
  const Eigen::VectorXd q = random_vector(128, 2);
  const AxisPosition pos{3, 40, 9};
  // freqs (3, 64); freqs_t = freqs[0]; freqs_t[1:60:3] = freqs[1]; freqs_t[2:60:3] = freqs[2].
  std::vector<double> ft(64);
  for (int i = 0; i < 64; ++i) ft[i] = pos[0] * inv[i];
  for (int i = 1; i < 60; i += 3) ft[i] = pos[1] * inv[i];
  for (int i = 2; i < 60; i += 3) ft[i] = pos[2] * inv[i];
  std::vector<double> angle(128);
  for (int j = 0; j < 128; ++j) angle[j] = ft[j % 64];
  expect_vectors_near(pe::apply_multi_axis_rope(q, l, pos), apply_half_split(q, angle), 1e-12);
}

TEST(MultimodalRotation, VisionVariantsMatchTheirReferenceTables) {
  const AxisPosition pos{0, 5, 11};  // row 5, column 11
  {  // Qwen2-VL: rotary_pos_emb = cat(h·inv, w·inv) (40), emb = cat(x, x) (80).
    const auto inv = ladder(10000, 20, 40);
    std::vector<double> row(40), angle(80);
    for (int j = 0; j < 20; ++j) row[j] = 5 * inv[j], row[20 + j] = 11 * inv[j];
    for (int j = 0; j < 80; ++j) angle[j] = row[j % 40];
    const Eigen::VectorXd q = random_vector(80, 3);
    expect_vectors_near(pe::apply_multi_axis_rope(q, pe::vision_2d_layout(pe::Vision2DVariant::Qwen2VL, 80, 1e4), pos),
                        apply_half_split(q, angle), 1e-12);
  }
  {  // Pixtral: cat(h·freqs[::2], w·freqs[1::2]) (32), then cat(x, x) (64).
    const auto f = ladder(10000, 32, 64);
    std::vector<double> row(32), angle(64);
    for (int j = 0; j < 16; ++j) row[j] = 5 * f[2 * j], row[16 + j] = 11 * f[2 * j + 1];
    for (int j = 0; j < 64; ++j) angle[j] = row[j % 32];
    const Eigen::VectorXd q = random_vector(64, 4);
    expect_vectors_near(pe::apply_multi_axis_rope(q, pe::vision_2d_layout(pe::Vision2DVariant::Pixtral, 64, 1e4), pos),
                        apply_half_split(q, angle), 1e-12);
  }
  {  // Llama 4: freqs_x = repeat_interleave((x+1)·rope_freq, 2), same for y; cat; [..., ::2].
    const auto rf = ladder(10000, 22, 44);
    std::vector<double> cat;
    for (int j = 0; j < 22; ++j) cat.push_back((11 + 1) * rf[j]), cat.push_back((11 + 1) * rf[j]);
    for (int j = 0; j < 22; ++j) cat.push_back((5 + 1) * rf[j]), cat.push_back((5 + 1) * rf[j]);
    std::vector<double> angle;
    for (std::size_t j = 0; j < cat.size(); j += 2) angle.push_back(cat[j]);
    const Eigen::VectorXd q = random_vector(88, 5);
    expect_vectors_near(pe::apply_multi_axis_rope(q, pe::vision_2d_layout(pe::Vision2DVariant::Llama4, 88, 1e4), pos),
                        apply_complex_pairs(q, angle), 1e-12);
  }
}

TEST(MultimodalRotation, FluxMatchesFluxPosEmbed) {
  // FluxPosEmbed: per axis get_1d_rotary_pos_embed(dim_a, ids[:, a]) with repeat_interleave,
  // concatenated; apply_rotary_emb pairs (2k, 2k+1).
  const AxisPosition pos{0, 17, 42};
  const long long dims[3] = {16, 56, 56};
  std::vector<double> angle;
  for (int a = 0; a < 3; ++a) {
    const auto f = ladder(10000, dims[a] / 2, dims[a]);
    for (double x : f) angle.push_back(pos[a] * x);
  }
  const Eigen::VectorXd q = random_vector(128, 6);
  expect_vectors_near(pe::apply_multi_axis_rope(q, pe::axial_layout({16, 56, 56}, 10000), pos),
                      apply_complex_pairs(q, angle), 1e-12);
}

TEST(MultimodalRotation, TextTokensWithEqualIdsAreOneDimensionalRope) {
  // t = h = w = p makes M-RoPE plain 1D RoPE (HF's docstring: "no difference with modern LLMs").
  const Eigen::ArrayXd inv = pe::inverse_frequencies(128, 1e6);
  const Eigen::VectorXd q = random_vector(128, 7);
  for (bool interleaved : {false, true}) {
    const MultiAxisLayout l = pe::mrope_layout(inv, interleaved ? Vec{24, 20, 20} : Vec{16, 24, 24}, interleaved);
    expect_vectors_near(pe::apply_multi_axis_rope(q, l, {37, 37, 37}),
                        pe::apply_rope(q, 37, inv, pe::PairConvention::HalfSplit), 1e-12);
  }
}

// --- scores -----------------------------------------------------------------------------

TEST(MultimodalScores, ClosedFormEqualsDotOfRotatedVectors) {
  const std::vector<MultiAxisLayout> layouts = {
      pe::mrope_layout(pe::inverse_frequencies(128, 1e6), {16, 24, 24}, false),
      pe::mrope_layout(pe::inverse_frequencies(128, 5e6), {24, 20, 20}, true),
      pe::vision_2d_layout(pe::Vision2DVariant::Qwen2VL, 80, 1e4),
      pe::vision_2d_layout(pe::Vision2DVariant::Pixtral, 64, 1e4),
      pe::vision_2d_layout(pe::Vision2DVariant::Llama4, 88, 1e4),
      pe::axial_layout({16, 56, 56}, 1e4)};
  for (const auto& l : layouts) {
    SCOPED_TRACE(std::string(pe::to_string(l.scheme)) + "/" + pe::to_string(l.vision_variant));
    const long long d = l.rotary_dim() + 6;  // a non-rotating tail too
    const Eigen::VectorXd q = random_vector(d, 11), k = random_vector(d, 12);
    const auto coeff = pe::relative_score_coefficients(q, k, l.pairs(), l.convention);
    for (const auto& [qp, kp] : std::vector<std::pair<AxisPosition, AxisPosition>>{
             {{0, 0, 0}, {0, 0, 0}}, {{1, 2, 3}, {4, 9, 1}}, {{5, 0, 17}, {5, 31, 2}}, {{100, 250, 3}, {2, 7, 300}}}) {
      const double direct = pe::apply_multi_axis_rope(q, l, qp).dot(pe::apply_multi_axis_rope(k, l, kp));
      EXPECT_LE(rel(pe::multi_axis_score(coeff, l, qp, kp), direct), 1e-10);
    }
  }
}

TEST(MultimodalScores, IdenticalVectorsPeakAtTheQueryPatch) {
  const MultiAxisLayout l = pe::vision_2d_layout(pe::Vision2DVariant::Qwen2VL, 80, 1e4);
  const auto c = pe::multi_axis_coefficients(pe::VectorChoice::MeanOfIdentical, l, 3, 64);
  const pe::TableD g = pe::grid_scores(c, l, 16, 16, 6, 9);
  Eigen::Index r = 0, col = 0;
  g.maxCoeff(&r, &col);
  EXPECT_EQ(r, 6);
  EXPECT_EQ(col, 9);
  EXPECT_NEAR(g(6, 9), c.a.sum(), 1e-9);  // Δ = 0: Σ a_i
}

TEST(MultimodalScores, GridIsEveryPatchScoredDirectly) {
  const std::vector<MultiAxisLayout> layouts = {
      pe::mrope_layout(pe::inverse_frequencies(128, 1e6), {16, 24, 24}, false),
      pe::mrope_layout(pe::inverse_frequencies(128, 5e6), {24, 20, 20}, true),
      pe::vision_2d_layout(pe::Vision2DVariant::Pixtral, 64, 1e4), pe::axial_layout({16, 56, 56}, 1e4)};
  for (const auto& l : layouts) {
    SCOPED_TRACE(pe::to_string(l.scheme));
    const auto c = pe::multi_axis_coefficients(pe::VectorChoice::RandomPair, l, 5);
    const long long rows = 7, cols = 11, qr = 2, qc = 8;
    const pe::TableD g = pe::grid_scores(c, l, rows, cols, qr, qc, 3.0);
    const pe::TableD f = pe::flattened_grid_scores(c, l, rows, cols, qr, qc);
    ASSERT_EQ(g.rows(), rows);
    ASSERT_EQ(g.cols(), cols);
    for (long long r = 0; r < rows; ++r)
      for (long long k = 0; k < cols; ++k) {
        const double spatial = pe::multi_axis_score(c, l, {0, double(qr), double(qc)}, {3, double(r), double(k)});
        EXPECT_NEAR(g(r, k), spatial, 1e-9 * (1 + std::abs(spatial)));
        // Flattened: every axis carries p = row·cols + col.
        const double p = double(r * cols + k), pq = double(qr * cols + qc);
        const double flat = pe::multi_axis_score(c, l, {pq, pq, pq}, {p, p, p});
        EXPECT_NEAR(f(r, k), flat, 1e-9 * (1 + std::abs(flat)));
      }
  }
}

TEST(MultimodalScores, FlatteningMakesTheRowWrapANeighbour) {
  // With identical vectors, the flattened score of the last patch of the query's row and
  // the first of the next row equals that of horizontal neighbours (Δp = 1); with 2D ids the
  // patch one row down scores like a horizontal neighbour and the wrap patch is far away.
  const MultiAxisLayout l = pe::vision_2d_layout(pe::Vision2DVariant::Qwen2VL, 80, 1e4);
  const auto c = pe::multi_axis_coefficients(pe::VectorChoice::MeanOfIdentical, l, 1, 64);
  const long long cols = 16;
  const pe::TableD flat = pe::flattened_grid_scores(c, l, 8, cols, 3, cols - 1);
  const pe::TableD grid = pe::grid_scores(c, l, 8, cols, 3, cols - 1);
  EXPECT_NEAR(flat(4, 0), flat(3, cols - 2), 1e-9);  // Δp = +1 and −1: equal for identical vectors
  EXPECT_GT(grid(4, cols - 1), grid(4, 0));            // 2D: below beats the far-left patch
  EXPECT_GT(flat(4, 0), flat(4, cols - 1));            // flat: the wrap neighbour beats "below" (Δp = 16)
}

TEST(MultimodalScores, GridValidation) {
  const MultiAxisLayout l = pe::vision_2d_layout(pe::Vision2DVariant::Qwen2VL, 80, 1e4);
  const auto c = pe::multi_axis_coefficients(pe::VectorChoice::Identical, l);
  EXPECT_EQ(rejected([&] { pe::grid_scores(c, l, 0, 8, 0, 0); }), "rows");
  EXPECT_EQ(rejected([&] { pe::grid_scores(c, l, 8, -3, 0, 0); }), "cols");
  EXPECT_EQ(rejected([&] { pe::grid_scores(c, l, 1000, 1000, 0, 0); }), "grid");  // 10^6 patches
  EXPECT_EQ(rejected([&] { pe::flattened_grid_scores(c, l, 1000, 1000, 0, 0); }), "grid");
  EXPECT_EQ(rejected([&] { pe::grid_scores(c, l, 8, 8, 8, 0); }), "query_row");
  const auto wrong = pe::choice_coefficients(pe::VectorChoice::Identical, 12);
  EXPECT_EQ(rejected([&] { pe::grid_scores(wrong, l, 8, 8, 0, 0); }), "coefficients size");
}

// --- prompts and position ids ------------------------------------------------------------

pe::PositionIds ids_for(const std::string& prompt, RopeIndexFamily family,
                        RopeIndexVersion version = RopeIndexVersion::Transformers4, double tps = 0, double sample_fps = 2) {
  pe::RopeIndexOptions o;
  o.family = family;
  o.version = version;
  o.tokens_per_second = tps;
  o.sample_fps = sample_fps;
  return pe::rope_index(pe::parse_prompt_spec(prompt), o);
}

TEST(MultimodalRopeIndex, TextThenImageByHand) {
  // text:2 → 0, 1. Image grid 1×4×4, merge 2 → 2×2 tokens at offset st_idx + text_len = 2:
  // t = 2 2 2 2, h = 2 2 3 3, w = 2 3 2 3. Text after starts at max + 1 = 4.
  const auto ids = ids_for("text:2,image:1x4x4,text:3", RopeIndexFamily::Qwen2VL);
  EXPECT_EQ(ids.t, (Vec{0, 1, 2, 2, 2, 2, 4, 5, 6}));
  EXPECT_EQ(ids.h, (Vec{0, 1, 2, 2, 3, 3, 4, 5, 6}));
  EXPECT_EQ(ids.w, (Vec{0, 1, 2, 3, 2, 3, 4, 5, 6}));
  EXPECT_EQ(ids.rope_delta, 6 + 1 - 9);
  EXPECT_EQ(ids.kind[2], PromptItemKind::Image);
  EXPECT_EQ(ids.kind[8], PromptItemKind::Text);
}

TEST(MultimodalRopeIndex, Qwen2VLDocstringVideo) {
  // modeling_qwen2_vl.py get_rope_index docstring: 3 temporal, 2 × 2 spatial patches then 5 text.
  const auto ids = ids_for("video:3x4x4,text:5", RopeIndexFamily::Qwen2VL);
  EXPECT_EQ(ids.t, (Vec{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(ids.h, (Vec{0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 3, 4, 5, 6, 7}));
  EXPECT_EQ(ids.w, (Vec{0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 3, 4, 5, 6, 7}));
}

TEST(MultimodalRopeIndex, Qwen25VLDocstringTimeAlignment) {
  // modeling_qwen2_5_vl.py docstring: fps 1, tokens_per_second 25, temporal_patch_size 2 →
  // interval 50; text after at 101.
  const auto ids = ids_for("video:3x4x4,text:5", RopeIndexFamily::Qwen25VL, RopeIndexVersion::Transformers4, 25, 1);
  EXPECT_EQ(ids.t, (Vec{0, 0, 0, 0, 50, 50, 50, 50, 100, 100, 100, 100, 101, 102, 103, 104, 105}));
  EXPECT_EQ(ids.h, (Vec{0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 101, 102, 103, 104, 105}));
  // Default fps 2 and the 7B's tokens_per_second 2: one second per temporal patch, step 2.
  const auto d = ids_for("text:1,video:3x2x2", RopeIndexFamily::Qwen25VL, RopeIndexVersion::Transformers4, 2, 2);
  EXPECT_EQ(d.t, (Vec{0, 1, 3, 5}));
  // fps 3: second_per_grid_t = 2/3, ids floor(t·2/3·2) = 0, 1, 2, 4.
  const auto f = ids_for("video:4x2x2", RopeIndexFamily::Qwen25VL, RopeIndexVersion::Transformers4, 2, 3);
  EXPECT_EQ(f.t, (Vec{0, 1, 2, 4}));
  // Images are not time-scaled (second_per_grid_t = 0 for images).
  const auto img = ids_for("image:1x2x4", RopeIndexFamily::Qwen25VL, RopeIndexVersion::Transformers4, 2, 2);
  EXPECT_EQ(img.t, (Vec{0, 0}));
  EXPECT_EQ(img.w, (Vec{0, 1}));
}

TEST(MultimodalRopeIndex, Qwen3VLSplitsVideosIntoFrames) {
  // Each temporal patch is its own t = 1 block; the second starts at the first's max + 1.
  const auto q3 = ids_for("video:2x4x4", RopeIndexFamily::Qwen3VL);
  EXPECT_EQ(q3.t, (Vec{0, 0, 0, 0, 2, 2, 2, 2}));
  EXPECT_EQ(q3.h, (Vec{0, 0, 1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(q3.w, (Vec{0, 1, 0, 1, 2, 3, 2, 3}));
  const auto q2 = ids_for("video:2x4x4", RopeIndexFamily::Qwen2VL);
  EXPECT_EQ(q2.t, (Vec{0, 0, 0, 0, 1, 1, 1, 1}));
  EXPECT_EQ(q2.h, (Vec{0, 0, 1, 1, 0, 0, 1, 1}));
}

TEST(MultimodalRopeIndex, Transformers5AdvancesByTheLargerSide) {
  // v5: vision (start + t, start + row, start + col), next = start + max(h, w) // merge.
  const auto v5 = ids_for("video:3x4x4,text:5", RopeIndexFamily::Qwen2VL, RopeIndexVersion::Transformers5);
  EXPECT_EQ(v5.t, (Vec{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 4, 5, 6}));
  EXPECT_EQ(v5.h, (Vec{0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 2, 3, 4, 5, 6}));
  // Images agree with v4: text:1,image:1x4x6 → next = 1 + max(0, 1, 2) + 1 = 1 + 6 // 2 = 4.
  for (auto version : {RopeIndexVersion::Transformers4, RopeIndexVersion::Transformers5}) {
    const auto ids = ids_for("text:1,image:1x4x6,text:1", RopeIndexFamily::Qwen2VL, version);
    EXPECT_EQ(ids.t, (Vec{0, 1, 1, 1, 1, 1, 1, 4}));
    EXPECT_EQ(ids.h, (Vec{0, 1, 1, 1, 2, 2, 2, 4}));
    EXPECT_EQ(ids.w, (Vec{0, 1, 2, 3, 1, 2, 3, 4}));
  }
  // Qwen2.5-VL v5 truncates second_per_grid_t (2/3 → 0): every frame at the start.
  const auto f = ids_for("video:4x2x2", RopeIndexFamily::Qwen25VL, RopeIndexVersion::Transformers5, 2, 3);
  EXPECT_EQ(f.t, (Vec{0, 0, 0, 0}));
}

TEST(MultimodalRopeIndex, ConsecutiveImagesAndTheBriefsExample) {
  const auto ids = ids_for("image:1x2x2,image:1x2x2", RopeIndexFamily::Qwen2VL);
  EXPECT_EQ(ids.t, (Vec{0, 1}));
  // text:5,image:1x8x12,text:3,video:4x8x8 (merge 2): image 4×6 at 5, next 5 + 6 = 11;
  // text 11, 12, 13; video 4 × (4×4) at 14, t = 14 ... 17, next 14 + 4 = 18.
  const auto b = ids_for("text:5,image:1x8x12,text:3,video:4x8x8", RopeIndexFamily::Qwen2VL);
  ASSERT_EQ(b.tokens(), 5 + 24 + 3 + 64);
  EXPECT_EQ(b.w[5], 5);
  EXPECT_EQ(b.w[10], 10);   // last column of the first image row
  EXPECT_EQ(b.h[28], 8);    // last image token: row 3
  EXPECT_EQ(b.t[29], 11);   // text after the image
  EXPECT_EQ(b.t[32], 14);   // first video token
  EXPECT_EQ(b.t.back(), 17);
  EXPECT_EQ(b.rope_delta, 17 + 1 - 96);
}

TEST(MultimodalRopeIndex, PromptSpecParsingAndValidation) {
  const auto p = pe::parse_prompt_spec(" text:5 , image:1x8x12,video:4x8x8 ");
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].tokens, 5);
  EXPECT_EQ(p[1].kind, PromptItemKind::Image);
  EXPECT_EQ(p[1].h, 8);
  EXPECT_EQ(p[1].w, 12);
  EXPECT_EQ(p[2].t, 4);
  EXPECT_EQ(pe::format_prompt_spec(p), "text:5,image:1x8x12,video:4x8x8");
  for (const char* bad : {"", "text", "text:0", "text:-1", "text:1.5", "image:1x8", "image:1x8x", "image:0x8x8",
                          "video:1x8x8x8", "audio:3", "text:5,,text:1", "image:1x99999x2", "text:99999999999999999999"})
    EXPECT_EQ(rejected([&] { pe::parse_prompt_spec(bad); }), "prompt") << bad;
  pe::RopeIndexOptions o;
  EXPECT_EQ(rejected([&] { pe::rope_index(pe::parse_prompt_spec("image:1x7x8"), o); }), "prompt");  // 7 % 2
  EXPECT_EQ(rejected([&] { pe::rope_index(pe::parse_prompt_spec("video:64x2048x2048"), o); }), "prompt");  // 2^26 tokens
  o.sample_fps = 0;
  EXPECT_EQ(rejected([&] { pe::rope_index(pe::parse_prompt_spec("video:2x2x2"), o); }), "sample_fps");
  o.sample_fps = 2;
  o.spatial_merge_size = 0;
  EXPECT_EQ(rejected([&] { pe::rope_index(pe::parse_prompt_spec("text:1"), o); }), "spatial_merge_size");
}

}  // namespace
