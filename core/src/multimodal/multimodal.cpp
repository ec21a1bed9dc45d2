// Multimodal rotary embeddings: pair layouts, rotation and scores. Reference code, read for
// behaviour (Hugging Face transformers, src/transformers/models/...):
//  - qwen2_vl/modeling_qwen2_vl.py: apply_multimodal_rotary_pos_emb (M-RoPE sections, with
//    emb = cat(freqs, freqs) and rotate_half: pair i is dims (i, i + d/2)),
//    VisionRotaryEmbedding + Qwen2VisionTransformerPretrainedModel.rot_pos_emb (vision 2D);
//  - qwen3_vl/modular_qwen3_vl.py: Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope,
//    Qwen3VLVisionModel.rot_pos_emb (the Qwen2-VL vision layout again);
//  - pixtral/modeling_pixtral.py: PixtralRotaryEmbedding (freqs[::2] for h, freqs[1::2] for w);
//  - llama4/modeling_llama4.py: Llama4VisionRotaryEmbedding (x then y, (pos + 1)·freq,
//    [..., ::2] of repeat_interleaved freqs, complex (interleaved) pairs);
//  - diffusers models/transformers/transformer_flux.py FluxPosEmbed and
//    models/embeddings.py get_1d_rotary_pos_embed(repeat_interleave_real=True) +
//    apply_rotary_emb(use_real_unbind_dim=-1) (axial, interleaved pairs).
// Prompt position ids are in multimodal_rope_index.cpp.
#include "pe/multimodal/multimodal.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "pe/base/errors.hpp"
#include "pe/encodings/simd.hpp"

namespace pe {
namespace {

std::string list_text(const std::vector<long long>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// theta^(−2j/dim), j < count, in double (HF computes the same in float32; the difference is
// float rounding, < 1e-7 relative).
double ladder(double theta, long long j, long long dim) {
  return 1.0 / std::pow(theta, static_cast<double>(2 * j) / static_cast<double>(dim));
}

void require_sections_sum(const std::vector<long long>& sections, long long rotary_pairs, const char* what) {
  long long sum = 0;
  for (std::size_t a = 0; a < sections.size(); ++a) {
    if (sections[a] < 0 || sections[a] > kMaxDim)
      throw InvalidArgument("sections[" + std::to_string(a) + "]", std::to_string(sections[a]),
                            std::string("pairs per axis must be 0 ... ") + std::to_string(kMaxDim));
    sum += sections[a];
  }
  if (sum != rotary_pairs)
    throw InvalidArgument("sections", list_text(sections),
                          std::string(what) + " must sum to the rotary pairs (rotary_dim / 2 = " +
                              std::to_string(rotary_pairs) + "), not " + std::to_string(sum));
}

void require_coefficients(const RelativeScoreCoefficients& c, const MultiAxisLayout& layout) {
  if (c.a.size() != layout.pairs() || c.b.size() != layout.pairs())
    throw InvalidArgument("coefficients size", std::to_string(c.a.size()) + " and " + std::to_string(c.b.size()),
                          "needs one a and one b per rotary pair of the layout (" + std::to_string(layout.pairs()) +
                              ")");
  if (!c.a.allFinite() || !c.b.allFinite() || !std::isfinite(c.passthrough))
    throw InvalidArgument("coefficients", "non-finite", "a, b and passthrough must be finite");
}

void require_layout(const MultiAxisLayout& layout) {
  if (layout.pairs() < 1 || layout.inv_freq_of_pair.size() != layout.pairs())
    throw InvalidArgument("layout", std::to_string(layout.pairs()) + " pairs",
                          "needs at least one pair and one frequency per pair");
  if ((layout.axis_of_pair < 0).any() || (layout.axis_of_pair > 2).any())
    throw InvalidArgument("layout.axis_of_pair", "out of range", "axes are 0 (t), 1 (h), 2 (w)");
}

void require_grid(long long rows, long long cols, long long query_row, long long query_col) {
  require_in_range("rows", rows, 1, kMaxGridSide);
  require_in_range("cols", cols, 1, kMaxGridSide);
  if (rows * cols > kMaxGridPatches)
    throw InvalidArgument("grid", std::to_string(rows) + " x " + std::to_string(cols) + " = " +
                                      std::to_string(rows * cols) + " patches",
                          "at most " + std::to_string(kMaxGridPatches) + " patches (512 x 512) per scored grid");
  require_in_range("query_row", query_row, 0, rows - 1);
  require_in_range("query_col", query_col, 0, cols - 1);
}

}  // namespace

const char* to_string(MultiAxisScheme s) {
  switch (s) {
    case MultiAxisScheme::MRope: return "mrope";
    case MultiAxisScheme::MRopeInterleaved: return "mrope-interleaved";
    case MultiAxisScheme::Vision2D: return "vision-2d";
    case MultiAxisScheme::Axial: return "axial";
    case MultiAxisScheme::Ernie3D: return "ernie-3d";
  }
  return "mrope";
}

const char* to_string(Vision2DVariant v) {
  switch (v) {
    case Vision2DVariant::Qwen2VL: return "qwen2-vl";
    case Vision2DVariant::Pixtral: return "pixtral";
    case Vision2DVariant::Llama4: return "llama4";
  }
  return "qwen2-vl";
}

const char* to_string(RopeIndexFamily f) {
  switch (f) {
    case RopeIndexFamily::Qwen2VL: return "qwen2-vl";
    case RopeIndexFamily::Qwen25VL: return "qwen2.5-vl";
    case RopeIndexFamily::Qwen3VL: return "qwen3-vl";
  }
  return "qwen2-vl";
}

const char* to_string(RopeIndexVersion v) {
  return v == RopeIndexVersion::Transformers5 ? "transformers-5" : "transformers-4";
}

MultiAxisScheme multi_axis_scheme_from_string(const std::string& s, const char* parameter) {
  for (auto v : {MultiAxisScheme::MRope, MultiAxisScheme::MRopeInterleaved, MultiAxisScheme::Vision2D,
                 MultiAxisScheme::Axial, MultiAxisScheme::Ernie3D})
    if (s == to_string(v)) return v;
  throw InvalidArgument(parameter, "\"" + s + "\"", "one of mrope, mrope-interleaved, vision-2d, axial, ernie-3d");
}

Vision2DVariant vision_2d_variant_from_string(const std::string& s, const char* parameter) {
  for (auto v : {Vision2DVariant::Qwen2VL, Vision2DVariant::Pixtral, Vision2DVariant::Llama4})
    if (s == to_string(v)) return v;
  throw InvalidArgument(parameter, "\"" + s + "\"", "one of qwen2-vl, pixtral, llama4");
}

RopeIndexFamily rope_index_family_from_string(const std::string& s, const char* parameter) {
  for (auto v : {RopeIndexFamily::Qwen2VL, RopeIndexFamily::Qwen25VL, RopeIndexFamily::Qwen3VL})
    if (s == to_string(v)) return v;
  throw InvalidArgument(parameter, "\"" + s + "\"", "one of qwen2-vl, qwen2.5-vl, qwen3-vl");
}

RopeIndexVersion rope_index_version_from_string(const std::string& s, const char* parameter) {
  for (auto v : {RopeIndexVersion::Transformers4, RopeIndexVersion::Transformers5})
    if (s == to_string(v)) return v;
  throw InvalidArgument(parameter, "\"" + s + "\"", "one of transformers-4, transformers-5");
}

std::array<long long, 3> MultiAxisLayout::pairs_per_axis() const {
  std::array<long long, 3> n{0, 0, 0};
  for (Eigen::Index i = 0; i < axis_of_pair.size(); ++i)
    if (axis_of_pair[i] >= 0 && axis_of_pair[i] <= 2) ++n[static_cast<std::size_t>(axis_of_pair[i])];
  return n;
}

MultiAxisLayout mrope_layout(const Eigen::ArrayXd& inv_freq, const std::vector<long long>& sections, bool interleaved) {
  require_frequencies("inv_freq", inv_freq);
  const long long pairs = inv_freq.size();
  if (sections.size() != 3)
    throw InvalidArgument("sections", list_text(sections), "mrope_section has three entries (t, h, w)");
  require_sections_sum(sections, pairs, "mrope_section");

  MultiAxisLayout l;
  l.scheme = interleaved ? MultiAxisScheme::MRopeInterleaved : MultiAxisScheme::MRope;
  l.inv_freq_of_pair = inv_freq;
  l.axis_of_pair.resize(pairs);
  l.convention = PairConvention::HalfSplit;  // emb = cat(freqs, freqs) + rotate_half in both models
  if (!interleaved) {
    // mrope_section * 2 splits cat(freqs, freqs) into t|h|w|t|h|w: pair i takes the axis of
    // the section it falls in, in both halves alike.
    long long i = 0;
    for (int axis = 0; axis < 3; ++axis)
      for (long long k = 0; k < sections[static_cast<std::size_t>(axis)]; ++k) l.axis_of_pair[i++] = axis;
  } else {
    // apply_interleaved_mrope: start from t everywhere, overwrite slice(1, 3·s_h, 3) with h
    // and slice(2, 3·s_w, 3) with w.
    for (long long i = 0; i < pairs; ++i) {
      int axis = kAxisT;
      if (i % 3 == 1 && i < 3 * sections[1]) axis = kAxisH;
      if (i % 3 == 2 && i < 3 * sections[2]) axis = kAxisW;
      l.axis_of_pair[i] = axis;
    }
  }
  return l;
}

bool is_language_mrope(MultiAxisScheme scheme) {
  return scheme == MultiAxisScheme::MRope || scheme == MultiAxisScheme::MRopeInterleaved || scheme == MultiAxisScheme::Ernie3D;
}

MultiAxisLayout mrope_layout(const Eigen::ArrayXd& inv_freq, const std::vector<long long>& sections, MultiAxisScheme scheme) {
  if (scheme != MultiAxisScheme::Ernie3D) {
    if (!is_language_mrope(scheme)) throw InvalidArgument("scheme", to_string(scheme), "mrope, mrope-interleaved or ernie-3d");
    return mrope_layout(inv_freq, sections, scheme == MultiAxisScheme::MRopeInterleaved);
  }
  require_frequencies("inv_freq", inv_freq);
  const long long pairs = inv_freq.size();
  if (sections.size() != 3)
    throw InvalidArgument("sections", list_text(sections), "three entries (t, h, w pairs)");
  require_sections_sum(sections, pairs, "mrope_section");
  if (sections[1] != sections[2])
    throw InvalidArgument("sections", list_text(sections), "as many h pairs as w pairs: ERNIE's 3D RoPE alternates them");
  MultiAxisLayout l;
  l.scheme = scheme;
  l.inv_freq_of_pair = inv_freq;
  l.axis_of_pair.resize(pairs);
  // cos/sin repeat_interleave(2) and rotate_half_text: adjacent dims (2i, 2i+1) form pair i.
  l.convention = PairConvention::Interleaved;
  const long long spatial = sections[1] + sections[2];
  for (long long i = 0; i < pairs; ++i) l.axis_of_pair[i] = i < spatial ? (i % 2 == 0 ? kAxisH : kAxisW) : kAxisT;
  return l;
}

MultiAxisLayout vision_2d_layout(Vision2DVariant variant, long long head_dim, double theta) {
  require_in_range("head_dim", head_dim, 4, kMaxDim);
  if (head_dim % 4 != 0)
    throw InvalidArgument("head_dim", std::to_string(head_dim),
                          "vision 2D RoPE splits the pairs between h and w, so head_dim must be divisible by 4");
  require_theta("theta", theta);
  const long long pairs = head_dim / 2, half = pairs / 2;
  MultiAxisLayout l;
  l.scheme = MultiAxisScheme::Vision2D;
  l.vision_variant = variant;
  l.axis_of_pair.resize(pairs);
  l.inv_freq_of_pair.resize(pairs);
  switch (variant) {
    case Vision2DVariant::Qwen2VL:
      // VisionRotaryEmbedding(head_dim // 2): a ladder over dim = head_dim/2 (half as many
      // rungs as a text head); rot_pos_emb looks it up at (row, col) and flattens h then w.
      for (long long i = 0; i < pairs; ++i) {
        l.axis_of_pair[i] = i < half ? kAxisH : kAxisW;
        l.inv_freq_of_pair[i] = ladder(theta, i % half, pairs);
      }
      l.convention = PairConvention::HalfSplit;
      break;
    case Vision2DVariant::Pixtral:
      // One ladder over head_dim; h takes the even rungs, w the odd ones, so neither axis
      // is left with only the slow half.
      for (long long i = 0; i < pairs; ++i) {
        const bool h = i < half;
        l.axis_of_pair[i] = h ? kAxisH : kAxisW;
        l.inv_freq_of_pair[i] = ladder(theta, h ? 2 * i : 2 * (i - half) + 1, head_dim);
      }
      l.convention = PairConvention::HalfSplit;
      break;
    case Vision2DVariant::Llama4:
      // freq_dim = head_dim/2, rope_freq over it; the x (column) block comes first, then y;
      // complex multiplication on (2k, 2k+1); patches rotate by (col + 1, row + 1).
      for (long long i = 0; i < pairs; ++i) {
        l.axis_of_pair[i] = i < half ? kAxisW : kAxisH;
        l.inv_freq_of_pair[i] = ladder(theta, i % half, pairs);
      }
      l.convention = PairConvention::Interleaved;
      l.position_offset = 1.0;
      break;
  }
  return l;
}

MultiAxisLayout axial_layout(const std::vector<long long>& axes_dims, double theta) {
  if (axes_dims.empty() || axes_dims.size() > 3)
    throw InvalidArgument("axes_dims", list_text(axes_dims), "one to three axes");
  require_theta("theta", theta);
  long long pairs = 0;
  for (std::size_t a = 0; a < axes_dims.size(); ++a) {
    const long long d = axes_dims[a];
    if (d < 2 || d > kMaxDim || d % 2 != 0)
      throw InvalidArgument("axes_dims[" + std::to_string(a) + "]", std::to_string(d),
                            "each axis needs an even number of dims, 2 ... " + std::to_string(kMaxDim));
    pairs += d / 2;
  }
  if (pairs > kMaxDim / 2)
    throw InvalidArgument("axes_dims", list_text(axes_dims), "at most " + std::to_string(kMaxDim) + " dims in all");
  MultiAxisLayout l;
  l.scheme = MultiAxisScheme::Axial;
  l.axis_of_pair.resize(pairs);
  l.inv_freq_of_pair.resize(pairs);
  l.convention = PairConvention::Interleaved;  // repeat_interleave_real=True, unbind(-1)
  // Fewer than three axes are the trailing ones (h, w): a 2D grid has rows and columns.
  const int first_axis = 3 - static_cast<int>(axes_dims.size());
  long long i = 0;
  for (std::size_t a = 0; a < axes_dims.size(); ++a)
    for (long long j = 0; j < axes_dims[a] / 2; ++j, ++i) {
      l.axis_of_pair[i] = first_axis + static_cast<int>(a);
      l.inv_freq_of_pair[i] = ladder(theta, j, axes_dims[a]);
    }
  return l;
}

void validate(const MultiAxisRope& m, long long rotary_pairs) {
  require_in_range("rotary_pairs", rotary_pairs, 1, kMaxDim / 2);
  switch (m.scheme) {
    case MultiAxisScheme::MRope:
    case MultiAxisScheme::MRopeInterleaved:
    case MultiAxisScheme::Ernie3D:
      if (m.sections.size() != 3)
        throw InvalidArgument("sections", list_text(m.sections), "mrope_section has three entries (t, h, w)");
      require_sections_sum(m.sections, rotary_pairs, "mrope_section");
      if (m.scheme == MultiAxisScheme::Ernie3D && m.sections[1] != m.sections[2])
        throw InvalidArgument("sections", list_text(m.sections), "as many h pairs as w pairs (ERNIE's 3D RoPE)");
      break;
    case MultiAxisScheme::Vision2D:
      if (m.sections.size() != 3 || m.sections[0] != 0 || m.sections[1] != m.sections[2] ||
          2 * m.sections[1] != rotary_pairs)
        throw InvalidArgument("sections", list_text(m.sections),
                              "vision 2D gives no pairs to t and half of the " + std::to_string(rotary_pairs) +
                                  " pairs to each of h and w: [0, " + std::to_string(rotary_pairs / 2) + ", " +
                                  std::to_string(rotary_pairs / 2) + "]");
      if (rotary_pairs % 2 != 0)
        throw InvalidArgument("rotary_pairs", std::to_string(rotary_pairs), "vision 2D needs an even pair count");
      break;
    case MultiAxisScheme::Axial:
      if (m.sections.empty() || m.sections.size() > 3)
        throw InvalidArgument("sections", list_text(m.sections), "one to three axes");
      for (std::size_t a = 0; a < m.sections.size(); ++a)
        if (m.sections[a] < 1)
          throw InvalidArgument("sections[" + std::to_string(a) + "]", std::to_string(m.sections[a]),
                                "every axial axis needs at least one pair");
      require_sections_sum(m.sections, rotary_pairs, "axes_dims_rope / 2");
      break;
  }
}

MultiAxisRope multi_axis_from_sections(MultiAxisScheme scheme, std::vector<long long> sections, long long rotary_pairs,
                                       Vision2DVariant variant) {
  // llama.cpp stores four sections (t, h, w, e); the fourth is unused by these models.
  if (sections.size() == 4 && sections[3] == 0) sections.pop_back();
  // llama.cpp's VISION mode gives two sections (h, w).
  if (scheme == MultiAxisScheme::Vision2D && sections.size() == 2) sections.insert(sections.begin(), 0);
  MultiAxisRope m;
  m.scheme = scheme;
  m.sections = std::move(sections);
  m.vision_variant = variant;
  validate(m, rotary_pairs);
  return m;
}

MultiAxisLayout multi_axis_layout(const RopeConfig& config, long long current_length) {
  const auto& mm = config.multimodal;
  if (!mm.multi_axis)
    throw InvalidArgument("multimodal", "\"" + config.name + "\"",
                          std::string("a config with a multi-axis rotary (mrope_section, axes_dims_rope or a vision "
                                      "tower)") +
                              (mm.vision_tower ? "; this VLM's vision encoder has one: select the vision tower" : ""));
  const MultiAxisRope& m = *mm.multi_axis;
  switch (m.scheme) {
    case MultiAxisScheme::MRope:
    case MultiAxisScheme::MRopeInterleaved:
    case MultiAxisScheme::Ernie3D: {
      const ScaledFrequencies r = scaled_frequencies(config, current_length);
      MultiAxisLayout l = mrope_layout(r.inv_freq, m.sections, m.scheme);
      l.convention = config.convention;
      return l;
    }
    case MultiAxisScheme::Vision2D:
      return vision_2d_layout(m.vision_variant, config.head_dim, config.theta);
    case MultiAxisScheme::Axial: {
      std::vector<long long> dims;
      for (long long s : m.sections) dims.push_back(2 * s);
      return axial_layout(dims, config.theta);
    }
  }
  throw InvalidArgument("scheme", "unknown", "mrope, mrope-interleaved, vision-2d or axial");
}

RopeConfig vision_tower_config(const RopeConfig& vlm) {
  if (!vlm.multimodal.vision_tower)
    throw InvalidArgument("tower", "vision",
                          "a config whose vision_config has a rotary embedding (Qwen2-VL, Qwen2.5-VL, Qwen3-VL, "
                          "Pixtral, Llama 4); \"" + vlm.name + "\" has none");
  const VisionTowerRope& v = *vlm.multimodal.vision_tower;
  RopeConfig c;
  c.name = vlm.name + "-vision";
  c.title = (vlm.title.empty() ? vlm.name : vlm.title) + " vision encoder";
  c.source = vlm.source;
  c.theta = v.theta;
  c.head_dim = v.head_dim;
  c.partial_rotary_factor = 1.0;
  // Patches have no max_position_embeddings. Where the model has a fixed table (Pixtral,
  // Llama 4: image_size / patch_size per side) that is the length; Qwen's towers are
  // dynamic-resolution: 256 patches per side is a square image at Qwen2-VL's image
  // processor default max_pixels = 12845056 = 3584² with 14-px patches.
  c.max_position_embeddings = v.max_patches_per_side > 0 ? v.max_patches_per_side : 256;
  if (v.variant == Vision2DVariant::Llama4) c.max_position_embeddings += 1;  // positions are row/col + 1
  c.convention = v.variant == Vision2DVariant::Llama4 ? PairConvention::Interleaved : PairConvention::HalfSplit;
  MultiAxisRope m;
  m.scheme = MultiAxisScheme::Vision2D;
  m.vision_variant = v.variant;
  m.sections = {0, v.head_dim / 4, v.head_dim / 4};
  c.multimodal.multi_axis = m;
  validate(c);
  validate(m, c.rotary_dim() / 2);
  vision_2d_layout(v.variant, v.head_dim, v.theta);  // head_dim divisible by 4, theta > 1
  return c;
}

Eigen::VectorXd apply_multi_axis_rope(const Eigen::Ref<const Eigen::VectorXd>& x, const MultiAxisLayout& layout,
                                      const AxisPosition& position) {
  require_layout(layout);
  if (x.size() < layout.rotary_dim())
    throw InvalidArgument("x size", std::to_string(x.size()),
                          "at least the layout's rotary_dim (" + std::to_string(layout.rotary_dim()) + ")");
  for (std::size_t a = 0; a < 3; ++a) require_finite("position", position[a]);
  Eigen::VectorXd y = x;
  const long long pairs = layout.pairs();
  for (long long i = 0; i < pairs; ++i) {
    const auto [d1, d2] = pair_dims(layout.convention, 2 * pairs, i);
    const double p = position[static_cast<std::size_t>(layout.axis_of_pair[i])] + layout.position_offset;
    const double angle = p * layout.inv_freq_of_pair[i];
    const double c = std::cos(angle), s = std::sin(angle);
    const double x1 = x[d1], x2 = x[d2];
    y[d1] = x1 * c - x2 * s;
    y[d2] = x1 * s + x2 * c;
  }
  return y;
}

double multi_axis_score(const RelativeScoreCoefficients& c, const MultiAxisLayout& layout, const AxisPosition& query,
                        const AxisPosition& key) {
  require_layout(layout);
  require_coefficients(c, layout);
  for (std::size_t a = 0; a < 3; ++a) {
    require_finite("query", query[a]);
    require_finite("key", key[a]);
  }
  double s = c.passthrough;
  for (long long i = 0; i < layout.pairs(); ++i) {
    const auto axis = static_cast<std::size_t>(layout.axis_of_pair[i]);
    const double angle = (key[axis] - query[axis]) * layout.inv_freq_of_pair[i];
    s += c.a[i] * std::cos(angle) + c.b[i] * std::sin(angle);
  }
  return s;
}

RelativeScoreCoefficients multi_axis_coefficients(VectorChoice choice, const MultiAxisLayout& layout,
                                                  std::uint64_t seed, long long samples) {
  require_layout(layout);
  return choice_coefficients(choice, layout.pairs(), seed, samples);
}

void grid_scores_into(TableD& out, const RelativeScoreCoefficients& c, const MultiAxisLayout& layout, long long rows,
                      long long cols, long long query_row, long long query_col, double delta_t) {
  require_layout(layout);
  require_coefficients(c, layout);
  require_grid(rows, cols, query_row, query_col);
  require_finite("delta_t", delta_t);
  // Separable: pair i sees only its own axis, so
  //   s(r, c) = [passthrough + Σ_t-pairs] + Σ_h-pairs f_i(r − query_row) + Σ_w-pairs f_i(c − query_col)
  // with f_i(Δ) = a_i cos(Δθ_i) + b_i sin(Δθ_i).
  double constant = c.passthrough;
  Eigen::ArrayXd row_term = Eigen::ArrayXd::Zero(rows), col_term = Eigen::ArrayXd::Zero(cols);
  // The angles of each pair along its axis go through core's vector sincos (a query patch
  // dragged over a 64 × 64 grid at d = 1024 needs 32 768 of them a frame).
  Eigen::ArrayXd angle, sn, cs;
  for (long long i = 0; i < layout.pairs(); ++i) {
    const double th = layout.inv_freq_of_pair[i], a = c.a[i], b = c.b[i];
    const int axis = layout.axis_of_pair[i];
    if (axis == kAxisT) {
      constant += a * std::cos(delta_t * th) + b * std::sin(delta_t * th);
      continue;
    }
    const long long n = axis == kAxisH ? rows : cols, query = axis == kAxisH ? query_row : query_col;
    angle.resize(n);
    sn.resize(n);
    cs.resize(n);
    for (long long k = 0; k < n; ++k) angle[k] = static_cast<double>(k - query) * th;
    sincos_batch(angle.data(), sn.data(), cs.data(), n);
    (axis == kAxisH ? row_term : col_term) += a * cs + b * sn;
  }
  if (out.rows() != rows || out.cols() != cols) out.resize(rows, cols);
  for (long long r = 0; r < rows; ++r) out.row(r) = (constant + row_term[r]) + col_term.transpose();
}

TableD grid_scores(const RelativeScoreCoefficients& c, const MultiAxisLayout& layout, long long rows, long long cols,
                   long long query_row, long long query_col, double delta_t) {
  TableD out;
  grid_scores_into(out, c, layout, rows, cols, query_row, query_col, delta_t);
  return out;
}

void flattened_grid_scores_into(TableD& out, const RelativeScoreCoefficients& c, const MultiAxisLayout& layout,
                                long long rows, long long cols, long long query_row, long long query_col) {
  require_layout(layout);
  require_coefficients(c, layout);
  require_grid(rows, cols, query_row, query_col);
  // Every pair sees Δp = (r − query_row)·cols + (c − query_col). The phase splits into a row
  // part and a column part, e^{iΔpθ} = e^{i(r−qr)·cols·θ}·e^{i(c−qc)θ}, so with
  // U(r, i) = (a_i − i·b_i)·e^{i(r−qr)·cols·θ_i} and V(i, c) = e^{i(c−qc)θ_i} the grid is
  // Re(U·V) = [Re U | −Im U]·[Re V ; Im V]: one real matrix product (Eigen's blocked,
  // vectorised GEMM), rows·cols·2P multiply-adds, instead of a complex multiplication per
  // patch and pair (a 512 × 512 grid at 128 pairs took 160 ms that way).
  if (out.rows() != rows || out.cols() != cols) out.resize(rows, cols);
  const Eigen::Index pairs = layout.inv_freq_of_pair.size();
  Eigen::MatrixXd left(rows, 2 * pairs), right(2 * pairs, cols);
  // One row of angles at a time through core's vector sincos (accurate to 4e-16 where
  // |angle| ≤ 1.6·10⁶, std::sin/std::cos beyond).
  Eigen::ArrayXd angle(pairs), sn(pairs), cs(pairs);
  for (long long r = 0; r < rows; ++r) {
    const double step = static_cast<double>((r - query_row) * cols);
    angle = step * layout.inv_freq_of_pair;
    sincos_batch(angle.data(), sn.data(), cs.data(), pairs);
    for (Eigen::Index i = 0; i < pairs; ++i) {
      left(r, i) = c.a[i] * cs[i] + c.b[i] * sn[i];       // Re U
      left(r, pairs + i) = c.b[i] * cs[i] - c.a[i] * sn[i];  // −Im U
    }
  }
  for (long long col = 0; col < cols; ++col) {
    const double step = static_cast<double>(col - query_col);
    angle = step * layout.inv_freq_of_pair;
    sincos_batch(angle.data(), sn.data(), cs.data(), pairs);
    right.col(col).head(pairs) = cs.matrix();
    right.col(col).tail(pairs) = sn.matrix();
  }
  out.matrix().noalias() = left * right;
  out += c.passthrough;
}

TableD flattened_grid_scores(const RelativeScoreCoefficients& c, const MultiAxisLayout& layout, long long rows,
                             long long cols, long long query_row, long long query_col) {
  TableD out;
  flattened_grid_scores_into(out, c, layout, rows, cols, query_row, query_col);
  return out;
}

}  // namespace pe
