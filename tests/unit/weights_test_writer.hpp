#pragma once
// Writers for the weights tests, benchmarks and fuzz seeds, written from the format
// descriptions and independent of the readers under test:
//   - safetensors files (huggingface/safetensors README "Format": u64 N, N bytes of JSON,
//     data), laid out as the Rust writer does (names sorted, offsets back to back, the header
//     padded with spaces to a multiple of 8), plus raw headers for broken files;
//   - binary16 / bfloat16 encodings of exactly representable values (looked up against the
//     IEEE 754 formula, so a wrong encoder cannot agree with a wrong decoder);
//   - ggml quantisation blocks packed byte by byte from their parts (scale, min, the small
//     integer of each element), with the value each element must decode to computed from the
//     documented formula in double; the packing follows ggml's quantisers' loops
//     (ggml-quants.c quantize_row_*_ref: "qs[j/4 + l] = L[j+l] | L[j+l+32] << 2 | …", the Q3_K
//     high bits "for the 1st 8 quants into bit 0, the next 8 into bit 1"), not the decoders';
//   - 8-bit floats (E4M3 "FN", E5M2) from the OCP FP8 formula, and round-to-nearest-even
//     quantisation to them, for FP8 checkpoints with block scales;
//   - the row orders of the q/k families: Hugging Face half-split heads, llama.cpp's
//     interleaved permutation, Phi-3's stacked qkv_proj, GPT-NeoX's per-head query_key_value.
// GGUF files come from gguf_test_writer.hpp's GgufBuilder.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "gguf_test_writer.hpp"

namespace pe_test {

// ---- Floating-point encodings -------------------------------------------------------------

// The value of IEEE 754 binary16 bits: (−1)^s · 2^(e−15) · (1 + m/1024), subnormals 2^−14 · m/1024.
inline double half_value(std::uint16_t h) {
  const int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
  double v;
  if (e == 0) v = std::ldexp(m / 1024.0, -14);
  else if (e == 31) v = m ? std::nan("") : INFINITY;
  else v = std::ldexp(1.0 + m / 1024.0, e - 15);
  return s ? -v : v;
}

// The binary16 bits of a value binary16 holds exactly (throws otherwise).
inline std::uint16_t half_bits(double v) {
  static const std::map<double, std::uint16_t> table = [] {
    std::map<double, std::uint16_t> t;
    for (std::uint32_t h = 0; h < 0x10000; ++h) {
      const double x = half_value(static_cast<std::uint16_t>(h));
      if (!std::isnan(x) && !(x == 0 && (h & 0x8000))) t.emplace(x, static_cast<std::uint16_t>(h));
    }
    return t;
  }();
  const auto it = table.find(v);
  if (it == table.end()) throw std::logic_error("not exactly representable in binary16: " + std::to_string(v));
  return it->second;
}

// bfloat16 keeps a float's upper 16 bits; only values it holds exactly are accepted.
inline std::uint16_t bf16_bits(double v) {
  const float f = static_cast<float>(v);
  if (static_cast<double>(f) != v) throw std::logic_error("not a float: " + std::to_string(v));
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if (bits & 0xFFFF) throw std::logic_error("not exactly representable in bfloat16: " + std::to_string(v));
  return static_cast<std::uint16_t>(bits >> 16);
}

// The value of 8-bit float bits (OCP 8-bit Floating Point Specification): E4M3 "FN" (bias 7,
// S.1111.111 NaN, no infinities) and E5M2 (bias 15, exponent 31 = inf / NaN).
inline double fp8_value(std::uint8_t b, bool e4m3) {
  const int s = b >> 7;
  const int e = e4m3 ? (b >> 3) & 15 : (b >> 2) & 31, m = e4m3 ? b & 7 : b & 3;
  const int mbits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15, emax = e4m3 ? 15 : 31;
  double v;
  if (e4m3 && e == emax && m == 7) return std::nan("");
  if (!e4m3 && e == emax) v = m ? std::nan("") : INFINITY;
  else if (e == 0) v = std::ldexp(m / double(1 << mbits), 1 - bias);
  else v = std::ldexp(1.0 + m / double(1 << mbits), e - bias);
  return s ? -v : v;
}

// The code nearest to v (ties to the even code, i.e. the one with an even mantissa), among the
// finite ones: values beyond the largest saturate to it, as torch's to(float8) clamps after
// Fp8Quantize's torch.clamp. v = 0 gives +0.
inline std::uint8_t fp8_nearest(double v, bool e4m3) {
  int best = 0;
  double best_err = INFINITY;
  for (int b = 0; b < 256; ++b) {
    const double x = fp8_value(static_cast<std::uint8_t>(b), e4m3);
    if (!std::isfinite(x) || (x == 0 && (b & 0x80))) continue;
    const double err = std::fabs(x - v);
    if (err < best_err || (err == best_err && (b & 1) == 0)) best = b, best_err = err;
  }
  return static_cast<std::uint8_t>(best);
}

// The bits of a value the format holds exactly (throws otherwise).
inline std::uint8_t fp8_bits(double v, bool e4m3) {
  const std::uint8_t b = fp8_nearest(v, e4m3);
  if (fp8_value(b, e4m3) != v) throw std::logic_error("not exactly representable in FP8: " + std::to_string(v));
  return b;
}

inline Bytes encode(const std::vector<double>& values, const std::string& dtype) {
  Bytes b;
  for (double v : values) {
    if (dtype == "F32") {
      const float f = static_cast<float>(v);
      if (static_cast<double>(f) != v) throw std::logic_error("not a float: " + std::to_string(v));
      put_f32(b, f);
    } else if (dtype == "F16") {
      put_le(b, half_bits(v), 2);
    } else if (dtype == "BF16") {
      put_le(b, bf16_bits(v), 2);
    } else if (dtype == "F8_E4M3" || dtype == "F8_E5M2") {
      b.push_back(fp8_bits(v, dtype == "F8_E4M3"));
    } else {
      throw std::logic_error("encode: dtype " + dtype);
    }
  }
  return b;
}

// ---- safetensors --------------------------------------------------------------------------

class SafetensorsWriter {
 public:
  SafetensorsWriter& tensor(const std::string& name, const std::string& dtype, const std::vector<std::uint64_t>& shape, Bytes data) {
    tensors_[name] = {dtype, shape, std::move(data)};
    return *this;
  }
  // values in row-major order, encoded as dtype (F32, F16, BF16).
  SafetensorsWriter& values(const std::string& name, const std::string& dtype, const std::vector<std::uint64_t>& shape,
                            const std::vector<double>& v) {
    return tensor(name, dtype, shape, encode(v, dtype));
  }
  SafetensorsWriter& metadata(const std::string& key, const std::string& value) {
    metadata_[key] = value;
    return *this;
  }
  // The header JSON as the Rust writer lays it out (tensors in name order here, data in the same order).
  std::string header_json() const {
    std::string j = "{";
    if (!metadata_.empty()) {
      j += "\"__metadata__\":{";
      bool first = true;
      for (const auto& [k, v] : metadata_) {
        j += (first ? "" : ",") + quote(k) + ":" + quote(v);
        first = false;
      }
      j += "}";
    }
    std::uint64_t at = 0;
    for (const auto& [name, t] : tensors_) {
      if (j.size() > 1) j += ",";
      j += quote(name) + ":{\"dtype\":" + quote(t.dtype) + ",\"shape\":[";
      for (std::size_t k = 0; k < t.shape.size(); ++k) j += (k ? "," : "") + std::to_string(t.shape[k]);
      j += "],\"data_offsets\":[" + std::to_string(at) + "," + std::to_string(at + t.data.size()) + "]}";
      at += t.data.size();
    }
    return j + "}";
  }
  Bytes data() const {
    Bytes d;
    for (const auto& [name, t] : tensors_) d.insert(d.end(), t.data.begin(), t.data.end());
    return d;
  }
  // The file; the header padded with spaces to a multiple of `pad` bytes (the Rust writer: 8).
  Bytes bytes(std::size_t pad = 8) const { return file(header_json(), data(), pad); }

  // Any header text and data: the way to write broken files.
  static Bytes file(std::string header, const Bytes& data, std::size_t pad = 1) {
    while (pad > 1 && header.size() % pad != 0) header += ' ';
    Bytes b;
    put_u64(b, header.size());
    b.insert(b.end(), header.begin(), header.end());
    b.insert(b.end(), data.begin(), data.end());
    return b;
  }
  static std::string quote(const std::string& s) { return "\"" + s + "\""; }  // test names need no escapes

 private:
  struct Entry {
    std::string dtype;
    std::vector<std::uint64_t> shape;
    Bytes data;
  };
  std::map<std::string, Entry> tensors_;
  std::map<std::string, std::string> metadata_;
};

// ---- ggml blocks --------------------------------------------------------------------------
// Each builder returns the block's bytes and the values its elements stand for, in double,
// from the formula of the format (ggml-common.h / ggml-quants.c as described in the
// project's research notes).

struct Block {
  Bytes bytes;
  std::vector<double> values;
};

inline void put_half(Bytes& b, std::uint16_t h) { put_le(b, h, 2); }

// Q8_0: d | 32 × int8;  y = d · q.
inline Block q8_0_block(std::uint16_t d, const std::array<std::int8_t, 32>& q) {
  Block out;
  put_half(out.bytes, d);
  for (std::int8_t v : q) out.bytes.push_back(static_cast<std::uint8_t>(v));
  for (std::int8_t v : q) out.values.push_back(half_value(d) * v);
  return out;
}

// Q4_0: d | 16 bytes; byte j = q[j] (low nibble) | q[j+16] (high nibble);  y = d · (q − 8).
inline Block q4_0_block(std::uint16_t d, const std::array<std::uint8_t, 32>& q) {
  Block out;
  put_half(out.bytes, d);
  for (int j = 0; j < 16; ++j) out.bytes.push_back(static_cast<std::uint8_t>((q[j] & 15) | ((q[j + 16] & 15) << 4)));
  for (int i = 0; i < 32; ++i) out.values.push_back(half_value(d) * (q[i] - 8));
  return out;
}

// The 12 scale bytes of Q4_K / Q5_K for eight 6-bit scales and mins: bytes 0-3 hold
// sc[0..3] in bits 0-5 and bits 4-5 of sc[4..7] in bits 6-7; bytes 4-7 the same for the
// mins; bytes 8-11 hold the low 4 bits of sc[4+j] (low nibble) and of m[4+j] (high nibble).
inline std::array<std::uint8_t, 12> k_scales(const std::array<int, 8>& sc, const std::array<int, 8>& m) {
  std::array<std::uint8_t, 12> s{};
  for (int j = 0; j < 4; ++j) {
    s[j] = static_cast<std::uint8_t>((sc[j] & 63) | ((sc[j + 4] >> 4) << 6));
    s[j + 4] = static_cast<std::uint8_t>((m[j] & 63) | ((m[j + 4] >> 4) << 6));
    s[j + 8] = static_cast<std::uint8_t>((sc[j + 4] & 15) | ((m[j + 4] & 15) << 4));
  }
  return s;
}

// Q4_K (five_bits false, q in 0..15) and Q5_K (true, q in 0..31):
//   d | dmin | scales[12] | (Q5_K: qh[32]) | qs[128]
// element i = 32·sb + l: its low 4 bits in qs[32·(sb/2) + l] (low nibble for even sb, high
// for odd), Q5_K's fifth bit as bit sb of qh[l];  y = d·sc[sb]·q − dmin·m[sb].
inline Block k_block(bool five_bits, std::uint16_t d, std::uint16_t dmin, const std::array<int, 8>& sc, const std::array<int, 8>& m,
                     const std::array<int, 256>& q) {
  // Laid out by byte position (GCC 12 misreads a chain of vector inserts as overflowing).
  Block out;
  out.bytes.assign(five_bits ? 176 : 144, 0);
  std::uint8_t* b = out.bytes.data();
  b[0] = static_cast<std::uint8_t>(d & 255), b[1] = static_cast<std::uint8_t>(d >> 8);
  b[2] = static_cast<std::uint8_t>(dmin & 255), b[3] = static_cast<std::uint8_t>(dmin >> 8);
  const auto s = k_scales(sc, m);
  for (int k = 0; k < 12; ++k) b[4 + k] = s[static_cast<std::size_t>(k)];
  std::uint8_t* qh = b + 16;
  std::uint8_t* qs = b + (five_bits ? 48 : 16);
  for (int i = 0; i < 256; ++i) {
    const int sb = i / 32, l = i % 32;
    if (five_bits && (q[i] & 16)) qh[l] = static_cast<std::uint8_t>(qh[l] | (1 << sb));
    qs[32 * (sb / 2) + l] = static_cast<std::uint8_t>(qs[32 * (sb / 2) + l] | ((q[i] & 15) << (sb % 2 ? 4 : 0)));
  }
  for (int i = 0; i < 256; ++i) out.values.push_back(half_value(d) * sc[i / 32] * q[i] - half_value(dmin) * m[i / 32]);
  return out;
}

// Q6_K: ql[128] | qh[64] | int8 scales[16] | d, q in 0..63 stored as q (the value is q − 32).
// Element i: half = i/128, r = i%128, c = r/32, l = r%32; low 4 bits in
// ql[64·half + 32·(c & 1) + l] (low nibble for c < 2, high for c ≥ 2), top 2 bits in bits
// 2c, 2c+1 of qh[32·half + l];  y = d · scales[i/16] · (q − 32).
inline Block q6_k_block(std::uint16_t d, const std::array<std::int8_t, 16>& scales, const std::array<int, 256>& q) {
  std::array<std::uint8_t, 128> ql{};
  std::array<std::uint8_t, 64> qh{};
  for (int i = 0; i < 256; ++i) {
    const int half = i / 128, r = i % 128, c = r / 32, l = r % 32;
    const int lo = q[i] & 15, hi = (q[i] >> 4) & 3;
    std::uint8_t& low = ql[64 * half + 32 * (c & 1) + l];
    low = static_cast<std::uint8_t>(low | (c < 2 ? lo : lo << 4));
    qh[32 * half + l] = static_cast<std::uint8_t>(qh[32 * half + l] | (hi << (2 * c)));
  }
  Block out;
  out.bytes.insert(out.bytes.end(), ql.begin(), ql.end());
  out.bytes.insert(out.bytes.end(), qh.begin(), qh.end());
  for (std::int8_t s : scales) out.bytes.push_back(static_cast<std::uint8_t>(s));
  put_half(out.bytes, d);
  for (int i = 0; i < 256; ++i) out.values.push_back(half_value(d) * scales[i / 16] * (q[i] - 32));
  return out;
}

// The 32 quants of a block of 32 as ggml's quantisers store them (quantize_row_q4_0_ref …):
// byte j = q[j] | q[j + 16] << 4, for the low 4 bits of each.
inline void put_nibble_pairs(Bytes& b, const std::array<int, 32>& q) {
  for (int j = 0; j < 16; ++j) b.push_back(static_cast<std::uint8_t>((q[j] & 15) | ((q[j + 16] & 15) << 4)));
}

// Q5_0 / Q5_1's qh: a little-endian u32 whose bit j is bit 4 of q[j] (quantize_row_q5_0_ref:
// qh |= ((xi0 & 0x10u) >> 4) << (j + 0) and … << (j + qk/2)).
inline void put_fifth_bits(Bytes& b, const std::array<int, 32>& q) {
  std::uint32_t qh = 0;
  for (int j = 0; j < 32; ++j) qh |= static_cast<std::uint32_t>((q[j] >> 4) & 1) << j;
  put_le(b, qh, 4);
}

// Q4_1 (q 0..15) and Q5_1 (q 0..31): d | m | (Q5_1: qh) | qs;  y = d·q + m.
inline Block min_block(bool five_bits, std::uint16_t d, std::uint16_t m, const std::array<int, 32>& q) {
  Block out;
  put_half(out.bytes, d);
  put_half(out.bytes, m);
  if (five_bits) put_fifth_bits(out.bytes, q);
  put_nibble_pairs(out.bytes, q);
  for (int i = 0; i < 32; ++i) out.values.push_back(half_value(d) * q[i] + half_value(m));
  return out;
}

// Q5_0: d | qh | qs, q 0..31;  y = d·(q − 16).
inline Block q5_0_block(std::uint16_t d, const std::array<int, 32>& q) {
  Block out;
  put_half(out.bytes, d);
  put_fifth_bits(out.bytes, q);
  put_nibble_pairs(out.bytes, q);
  for (int i = 0; i < 32; ++i) out.values.push_back(half_value(d) * (q[i] - 16));
  return out;
}

// IQ4_NL and IQ4_XS's codebook, ggml-common.h kvalues_iq4nl as published.
inline constexpr std::array<int, 16> kIq4Levels = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};

// IQ4_NL: d | qs, each nibble an index into the codebook;  y = d·kvalues[idx].
inline Block iq4_nl_block(std::uint16_t d, const std::array<int, 32>& idx) {
  Block out;
  put_half(out.bytes, d);
  put_nibble_pairs(out.bytes, idx);
  for (int i = 0; i < 32; ++i) out.values.push_back(half_value(d) * kIq4Levels[static_cast<std::size_t>(idx[i])]);
  return out;
}

// The 2-bit arrays of Q2_K and Q3_K as quantize_row_q2_K_ref packs them: for each half
// j = 0, 128 and l < 32, qs[j/4 + l] = L[j+l] | L[j+l+32] << 2 | L[j+l+64] << 4 | L[j+l+96] << 6.
inline std::array<std::uint8_t, 64> two_bit_array(const std::array<int, 256>& L) {
  std::array<std::uint8_t, 64> qs{};
  for (int j = 0; j < 256; j += 128)
    for (int l = 0; l < 32; ++l)
      qs[static_cast<std::size_t>(j / 4 + l)] =
          static_cast<std::uint8_t>((L[j + l] & 3) | ((L[j + l + 32] & 3) << 2) | ((L[j + l + 64] & 3) << 4) | ((L[j + l + 96] & 3) << 6));
  return qs;
}

// Q2_K: scales[16] (sc | m << 4, 4 bits each) | qs[64] | d | dmin, q 0..3;
// y = d·sc[i/16]·q − dmin·m[i/16].
inline Block q2_k_block(std::uint16_t d, std::uint16_t dmin, const std::array<int, 16>& sc, const std::array<int, 16>& m,
                        const std::array<int, 256>& q) {
  Block out;
  for (int j = 0; j < 16; ++j) out.bytes.push_back(static_cast<std::uint8_t>((sc[j] & 15) | ((m[j] & 15) << 4)));
  const auto qs = two_bit_array(q);
  out.bytes.insert(out.bytes.end(), qs.begin(), qs.end());
  put_half(out.bytes, d);
  put_half(out.bytes, dmin);
  for (int i = 0; i < 256; ++i) out.values.push_back(half_value(d) * sc[i / 16] * q[i] - half_value(dmin) * m[i / 16]);
  return out;
}

// Q3_K: hmask[32] | qs[64] | scales[12] | d, sc −32..31 and q −4..3 stored as L = q + 4: the
// low 2 bits of L in qs; the third "into bit 0 for the 1st 32 quants, bit 1 for the next 32,
// …" — element j's in bit j/32 of hmask[j % 32]; the 6-bit s = sc + 32 as
// quantize_row_q3_K_ref packs it (low 4 bits in scales[j] or the high nibble of scales[j−8],
// the top 2 in bits 2·(j/4) of scales[8 + j%4]);  y = d·sc[i/16]·q.
inline Block q3_k_block(std::uint16_t d, const std::array<int, 16>& sc, const std::array<int, 256>& q) {
  std::array<std::uint8_t, 32> hmask{};
  std::array<int, 256> L{};
  for (int j = 0; j < 256; ++j) {
    L[j] = q[j] + 4;
    if (L[j] > 3) hmask[static_cast<std::size_t>(j % 32)] = static_cast<std::uint8_t>(hmask[j % 32] | (1 << (j / 32)));
  }
  std::array<std::uint8_t, 12> scales{};
  for (int j = 0; j < 16; ++j) {
    int l = sc[j] + 32;
    if (j < 8) scales[static_cast<std::size_t>(j)] = static_cast<std::uint8_t>(l & 0xF);
    else scales[static_cast<std::size_t>(j - 8)] = static_cast<std::uint8_t>(scales[j - 8] | ((l & 0xF) << 4));
    l >>= 4;
    scales[static_cast<std::size_t>(j % 4 + 8)] = static_cast<std::uint8_t>(scales[j % 4 + 8] | (l << (2 * (j / 4))));
  }
  Block out;
  out.bytes.insert(out.bytes.end(), hmask.begin(), hmask.end());
  const auto qs = two_bit_array(L);  // & 3 keeps the low 2 bits
  out.bytes.insert(out.bytes.end(), qs.begin(), qs.end());
  out.bytes.insert(out.bytes.end(), scales.begin(), scales.end());
  put_half(out.bytes, d);
  for (int i = 0; i < 256; ++i) out.values.push_back(half_value(d) * sc[i / 16] * q[i]);
  return out;
}

// IQ4_XS: d | scales_h (u16) | scales_l[4] | qs[128], sc −32..31 stored as s = sc + 32 (the
// low 4 bits of sub-block ib's in nibble ib % 2 of scales_l[ib/2], the top 2 in bits 2·ib of
// scales_h), each sub-block of 32 as nibble pairs;  y = d·sc[i/32]·kvalues[idx].
inline Block iq4_xs_block(std::uint16_t d, const std::array<int, 8>& sc, const std::array<int, 256>& idx) {
  Block out;
  put_half(out.bytes, d);
  std::uint16_t scales_h = 0;
  std::array<std::uint8_t, 4> scales_l{};
  for (int ib = 0; ib < 8; ++ib) {
    const int l = sc[ib] + 32;
    scales_l[static_cast<std::size_t>(ib / 2)] = static_cast<std::uint8_t>(scales_l[ib / 2] | ((l & 0xF) << (4 * (ib % 2))));
    scales_h = static_cast<std::uint16_t>(scales_h | ((l >> 4) << (2 * ib)));
  }
  put_le(out.bytes, scales_h, 2);
  out.bytes.insert(out.bytes.end(), scales_l.begin(), scales_l.end());
  for (int ib = 0; ib < 8; ++ib) {
    std::array<int, 32> part{};
    for (int k = 0; k < 32; ++k) part[static_cast<std::size_t>(k)] = idx[32 * ib + k];
    put_nibble_pairs(out.bytes, part);
  }
  for (int i = 0; i < 256; ++i) out.values.push_back(half_value(d) * sc[i / 32] * kIq4Levels[static_cast<std::size_t>(idx[i])]);
  return out;
}

// A random block of each kind (fixed seeds in the tests). Scales are kept small enough that
// every value is exact in double and in float.
inline Block random_block(const std::string& type, std::mt19937& rng) {
  std::uniform_int_distribution<int> u(0, 255);
  const std::array<std::uint16_t, 4> ds = {0x3400 /*0.25*/, 0x3800 /*0.5*/, 0x3C00 /*1*/, 0x3000 /*0.125*/};
  const std::uint16_t d = ds[static_cast<std::size_t>(u(rng) % 4)], dmin = ds[static_cast<std::size_t>(u(rng) % 4)];
  if (type == "q8_0") {
    std::array<std::int8_t, 32> q{};
    for (auto& v : q) v = static_cast<std::int8_t>(u(rng) - 128);
    return q8_0_block(d, q);
  }
  if (type == "q4_0") {
    std::array<std::uint8_t, 32> q{};
    for (auto& v : q) v = static_cast<std::uint8_t>(u(rng) % 16);
    return q4_0_block(d, q);
  }
  if (type == "q4_K" || type == "q5_K") {
    std::array<int, 8> sc{}, m{};
    for (auto& v : sc) v = u(rng) % 64;
    for (auto& v : m) v = u(rng) % 64;
    std::array<int, 256> q{};
    for (auto& v : q) v = u(rng) % (type == "q4_K" ? 16 : 32);
    return k_block(type == "q5_K", d, dmin, sc, m, q);
  }
  if (type == "q4_1" || type == "q5_1") {
    const std::array<std::uint16_t, 4> ms = {0xBE00 /*-1.5*/, 0xB400 /*-0.25*/, 0x3800 /*0.5*/, 0x4000 /*2*/};
    std::array<int, 32> q{};
    for (auto& v : q) v = u(rng) % (type == "q4_1" ? 16 : 32);
    return min_block(type == "q5_1", d, ms[static_cast<std::size_t>(u(rng) % 4)], q);
  }
  if (type == "q5_0") {
    std::array<int, 32> q{};
    for (auto& v : q) v = u(rng) % 32;
    return q5_0_block(d, q);
  }
  if (type == "iq4_nl") {
    std::array<int, 32> idx{};
    for (auto& v : idx) v = u(rng) % 16;
    return iq4_nl_block(d, idx);
  }
  if (type == "q2_K") {
    std::array<int, 16> sc{}, m{};
    for (auto& v : sc) v = u(rng) % 16;
    for (auto& v : m) v = u(rng) % 16;
    std::array<int, 256> q{};
    for (auto& v : q) v = u(rng) % 4;
    return q2_k_block(d, dmin, sc, m, q);
  }
  if (type == "q3_K") {
    std::array<int, 16> sc{};
    for (auto& v : sc) v = u(rng) % 64 - 32;
    std::array<int, 256> q{};
    for (auto& v : q) v = u(rng) % 8 - 4;
    return q3_k_block(d, sc, q);
  }
  if (type == "iq4_xs") {
    std::array<int, 8> sc{};
    for (auto& v : sc) v = u(rng) % 64 - 32;
    std::array<int, 256> idx{};
    for (auto& v : idx) v = u(rng) % 16;
    return iq4_xs_block(d, sc, idx);
  }
  if (type == "q6_K") {
    std::array<std::int8_t, 16> sc{};
    for (auto& v : sc) v = static_cast<std::int8_t>(u(rng) - 128);
    std::array<int, 256> q{};
    for (auto& v : q) v = u(rng) % 64;
    return q6_k_block(d, sc, q);
  }
  throw std::logic_error("random_block: " + type);
}

// ggml type numbers (ggml.h enum ggml_type) and block sizes, as the tests write them.
struct GgmlType {
  const char* name;
  std::uint32_t id;
  int block_elements, block_bytes;
};
inline const std::vector<GgmlType>& ggml_types() {
  static const std::vector<GgmlType> t = {
      {"f32", 0, 1, 4},       {"f16", 1, 1, 2},       {"bf16", 30, 1, 2},     {"q8_0", 8, 32, 34},    {"q4_0", 2, 32, 18},
      {"q4_1", 3, 32, 20},    {"q5_0", 6, 32, 22},    {"q5_1", 7, 32, 24},    {"iq4_nl", 20, 32, 18}, {"q2_K", 10, 256, 84},
      {"q3_K", 11, 256, 110}, {"q4_K", 12, 256, 144}, {"q5_K", 13, 256, 176}, {"q6_K", 14, 256, 210}, {"iq4_xs", 23, 256, 136}};
  return t;
}
inline const GgmlType& ggml_type(const std::string& name) {
  for (const auto& t : ggml_types())
    if (name == t.name) return t;
  throw std::logic_error("ggml_type " + name);
}

// A rows × cols matrix stored as a GGUF tensor of `type`: the bytes, and the values it
// decodes to (row-major). Plain types encode `values`; block types ignore them and draw
// random blocks (the values returned are the blocks').
struct Encoded {
  Bytes bytes;
  std::vector<double> values;
};
inline Encoded gguf_matrix(const std::string& type, long long rows, long long cols, const std::vector<double>& values, std::mt19937& rng) {
  Encoded out;
  if (type == "f32" || type == "f16" || type == "bf16") {
    out.bytes = encode(values, type == "f32" ? "F32" : type == "f16" ? "F16" : "BF16");
    out.values = values;
    return out;
  }
  const GgmlType& t = ggml_type(type);
  if (cols % t.block_elements) throw std::logic_error("gguf_matrix: cols");
  for (long long b = 0; b < rows * cols / t.block_elements; ++b) {
    Block blk = random_block(type, rng);
    out.bytes.insert(out.bytes.end(), blk.bytes.begin(), blk.bytes.end());
    out.values.insert(out.values.end(), blk.values.begin(), blk.values.end());
  }
  return out;
}

// ---- FP8 with block scales -----------------------------------------------------------------
// DeepSeek-V3's layout (inference/kernel.py weight_dequant; transformers Fp8Quantize): an F8
// weight of rows × cols and an F32 `<name>_scale_inv` of ceil(rows/br) × ceil(cols/bc), value
// (r, c) = fp8(r, c) · scale_inv(r / br, c / bc).

struct Fp8Encoded {
  Bytes weight, scales;          // the two tensors' data
  std::vector<double> values;    // what they stand for, row-major, in double
  std::uint64_t grid_rows = 0, grid_cols = 0;
};

inline Fp8Encoded fp8_matrix(const std::vector<std::uint8_t>& codes, const std::vector<float>& scales, long long rows, long long cols,
                             long long br, long long bc, bool e4m3) {
  Fp8Encoded out;
  out.grid_rows = static_cast<std::uint64_t>((rows + br - 1) / br);
  out.grid_cols = static_cast<std::uint64_t>((cols + bc - 1) / bc);
  if (codes.size() != static_cast<std::size_t>(rows * cols) || scales.size() != out.grid_rows * out.grid_cols)
    throw std::logic_error("fp8_matrix: sizes");
  out.weight.assign(codes.begin(), codes.end());
  for (float f : scales) put_f32(out.scales, f);
  for (long long r = 0; r < rows; ++r)
    for (long long c = 0; c < cols; ++c)
      out.values.push_back(fp8_value(codes[static_cast<std::size_t>(r * cols + c)], e4m3) *
                           static_cast<double>(scales[static_cast<std::size_t>((r / br) * static_cast<long long>(out.grid_cols) + c / bc)]));
  return out;
}

// Random normal codes of a narrow exponent range and power-of-two scales 2^-2 ... 2^2: every
// value and every sum of squares of a few hundred of them is exact in double (and each
// product exact in float).
inline Fp8Encoded random_fp8_matrix(long long rows, long long cols, long long br, long long bc, bool e4m3, std::mt19937& rng) {
  std::uniform_int_distribution<int> u(0, 1 << 20);
  std::vector<std::uint8_t> codes;
  for (long long k = 0; k < rows * cols; ++k) {
    const int sign = u(rng) % 2;
    const int exponent = e4m3 ? 1 + u(rng) % 14 : 10 + u(rng) % 11;  // E4M3 2^-6 ... 2^7, E5M2 2^-5 ... 2^5
    const int mantissa = u(rng) % (e4m3 ? 8 : 4);
    codes.push_back(static_cast<std::uint8_t>(sign << 7 | (e4m3 ? exponent << 3 | mantissa : exponent << 2 | mantissa)));
  }
  std::vector<float> scales;
  const long long grid = ((rows + br - 1) / br) * ((cols + bc - 1) / bc);
  for (long long k = 0; k < grid; ++k) scales.push_back(std::ldexp(1.0f, u(rng) % 5 - 2));
  return fp8_matrix(codes, scales, rows, cols, br, bc, e4m3);
}

// `values` quantised as transformers' Fp8Quantize and DeepSeek's act_quant do: per block
// s = amax / largest (448 for E4M3, 57344 for E5M2; 1 for an all-zero block), each code the
// nearest to v / s, scale_inv = s.
inline Fp8Encoded quantise_fp8(const std::vector<double>& values, long long rows, long long cols, long long br, long long bc, bool e4m3) {
  const long long gr = (rows + br - 1) / br, gc = (cols + bc - 1) / bc;
  std::vector<float> scales(static_cast<std::size_t>(gr * gc), 0.0f);
  for (long long r = 0; r < rows; ++r)
    for (long long c = 0; c < cols; ++c) {
      float& s = scales[static_cast<std::size_t>((r / br) * gc + c / bc)];
      s = std::max(s, static_cast<float>(std::fabs(values[static_cast<std::size_t>(r * cols + c)])));
    }
  for (float& s : scales) s = s > 0 ? s / (e4m3 ? 448.0f : 57344.0f) : 1.0f;
  std::vector<std::uint8_t> codes;
  for (long long r = 0; r < rows; ++r)
    for (long long c = 0; c < cols; ++c)
      codes.push_back(fp8_nearest(values[static_cast<std::size_t>(r * cols + c)] / scales[static_cast<std::size_t>((r / br) * gc + c / bc)], e4m3));
  return fp8_matrix(codes, scales, rows, cols, br, bc, e4m3);
}

// Writes `name` as an F8 tensor and `name`_scale_inv beside it.
inline void put_fp8(SafetensorsWriter& w, const std::string& name, long long rows, long long cols, const Fp8Encoded& e, bool e4m3) {
  w.tensor(name, e4m3 ? "F8_E4M3" : "F8_E5M2", {static_cast<std::uint64_t>(rows), static_cast<std::uint64_t>(cols)}, e.weight);
  w.tensor(name + "_scale_inv", "F32", {e.grid_rows, e.grid_cols}, e.scales);
}

// ---- q/k row orders -----------------------------------------------------------------------

// Matrix rows in row-major order.
using Rows = std::vector<std::vector<double>>;

inline std::vector<double> flat(const Rows& m) {
  std::vector<double> out;
  for (const auto& r : m) out.insert(out.end(), r.begin(), r.end());
  return out;
}

inline Rows unflat(const std::vector<double>& v, long long rows, long long cols) {
  Rows m(static_cast<std::size_t>(rows));
  for (long long r = 0; r < rows; ++r) m[r].assign(v.begin() + r * cols, v.begin() + (r + 1) * cols);
  return m;
}

// Values that F32, F16 and BF16 all hold exactly: k/16 for k in −64 ... 64.
inline Rows random_rows(long long rows, long long cols, std::mt19937& rng) {
  std::uniform_int_distribution<int> u(-64, 64);
  Rows m(static_cast<std::size_t>(rows), std::vector<double>(static_cast<std::size_t>(cols)));
  for (auto& r : m)
    for (auto& v : r) v = u(rng) / 16.0;
  return m;
}

// llama.cpp's convert_hf_to_gguf.py LlamaModel.permute, per head of hd rows: GGUF row
// h·hd + 2i + j is Hugging Face row h·hd + j·hd/2 + i.
inline Rows hf_to_interleaved(const Rows& hf, long long heads) {
  const long long hd = static_cast<long long>(hf.size()) / heads;
  Rows out(hf.size());
  for (long long h = 0; h < heads; ++h)
    for (long long i = 0; i < hd / 2; ++i)
      for (long long j = 0; j < 2; ++j) out[h * hd + 2 * i + j] = hf[h * hd + j * hd / 2 + i];
  return out;
}

inline Rows stacked(std::initializer_list<const Rows*> parts) {
  Rows out;
  for (const Rows* p : parts) out.insert(out.end(), p->begin(), p->end());
  return out;
}

// GPT-NeoX's query_key_value: per head h, q_h's hd rows, then k_h's, then v_h's.
inline Rows neox_qkv(const Rows& q, const Rows& k, const Rows& v, long long heads) {
  const long long hd = static_cast<long long>(q.size()) / heads;
  Rows out;
  for (long long h = 0; h < heads; ++h)
    for (const Rows* m : {&q, &k, &v}) out.insert(out.end(), m->begin() + h * hd, m->begin() + (h + 1) * hd);
  return out;
}

// ‖row a‖² + ‖row b‖², square-rooted: the norm a pair of rows should have, in double.
inline double pair_norm(const Rows& m, long long a, long long b) {
  double s = 0;
  for (double v : m[a]) s += v * v;
  for (double v : m[b]) s += v * v;
  return std::sqrt(s);
}

inline double rows_norm(const Rows& m, long long first, long long count) {
  double s = 0;
  for (long long r = first; r < first + count; ++r)
    for (double v : m[r]) s += v * v;
  return std::sqrt(s);
}

// A file in the temp folder, removed at the end of the scope.
class TempPath {
 public:
  explicit TempPath(const std::string& name)
      : path_(std::filesystem::temp_directory_path() / ("pe-weights-test-" + std::to_string(::getpid()) + "-" + name)) {}
  ~TempPath() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempPath(const TempPath&) = delete;
  TempPath& operator=(const TempPath&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace pe_test
