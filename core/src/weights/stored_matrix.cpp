// Sums of squares of stored rows. The plain formats are read in place (no copy: the bytes
// are the mapping's); block formats are decoded a few blocks at a time into a small buffer
// on the stack. Sums run in 8 independent double lanes that are added at the end in a fixed
// order: the compiler turns the lanes into vector registers without reassociating anything,
// so a row's sum does not depend on the thread or the batch it was read in. Block-scaled (FP8)
// rows are decoded the same way and each value multiplied by its block's scale, in float,
// before it is squared.
#include "pe/weights/stored_matrix.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

#include "pe/weights/float8.hpp"
#include "pe/weights/weights_error.hpp"

namespace pe {

namespace {

constexpr int kLanes = 8;

double lanes_total(const std::array<double, kLanes>& a) {
  return ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));
}

// Σ v(k)², k < n, with v(k) the k-th value as float.
template <class Value>
double sum_squares(long long n, Value value) {
  std::array<double, kLanes> acc{};
  long long k = 0;
  for (; k + kLanes <= n; k += kLanes)
    for (int l = 0; l < kLanes; ++l) {
      const double v = value(k + l);
      acc[static_cast<std::size_t>(l)] += v * v;
    }
  for (; k < n; ++k) {
    const double v = value(k);
    acc[static_cast<std::size_t>(k % kLanes)] += v * v;
  }
  return lanes_total(acc);
}

std::uint16_t u16_at(const std::uint8_t* p) {
  std::uint16_t v;
  std::memcpy(&v, p, 2);  // safetensors promises no alignment; the host is little-endian
  return v;
}

float f32_at(const std::uint8_t* p) {
  float v;
  std::memcpy(&v, p, 4);
  return v;
}

float bf16_at(const std::uint8_t* p) {
  const std::uint32_t bits = static_cast<std::uint32_t>(u16_at(p)) << 16;
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}

// The decoded values of a row in passes of at most kBuffer, handed to `use(first column,
// values, count)`. Passes hold whole blocks (blocks are 1, 32 or 256 values).
constexpr std::size_t kBuffer = 1024;

template <class Use>
void decoded_passes(const StoredMatrix& m, const std::uint8_t* row, Use use) {
  const StoredFormatInfo& f = format_info(m.format);
  const std::size_t per_pass = kBuffer / f.block_elements;
  std::array<float, kBuffer> values;
  const std::size_t blocks = static_cast<std::size_t>(m.cols) / f.block_elements;
  for (std::size_t b = 0; b < blocks; b += per_pass) {
    const std::size_t n = std::min(per_pass, blocks - b);
    decode_blocks(m.format, row + b * f.block_bytes, n, values.data());
    use(static_cast<long long>(b * f.block_elements), values.data(), static_cast<long long>(n * f.block_elements));
  }
}

// One grid row of scales as floats.
void scale_row(const BlockScales& s, long long grid_row, std::vector<float>& out) {
  out.resize(static_cast<std::size_t>(s.cols));
  const std::uint8_t* p = s.source->read(s.offset + static_cast<std::uint64_t>(grid_row) * s.row_bytes(), s.row_bytes()).data();
  if (s.e8m0) {
    for (long long c = 0; c < s.cols; ++c) out[static_cast<std::size_t>(c)] = e8m0_to_float(p[c]);
  } else {
    decode_blocks(s.format, p, static_cast<std::size_t>(s.cols), out.data());
  }
}

// Each decoded value times its column block's scale, in float (the dequantised weight).
template <class Use>
void scaled_passes(const StoredMatrix& m, const std::uint8_t* row, const std::vector<float>& scales, Use use) {
  const long long bc = m.scales->block_cols;
  decoded_passes(m, row, [&](long long first, float* v, long long n) {
    for (long long k = 0; k < n;) {
      const long long c = first + k;
      const long long end = std::min(n, k + (bc - c % bc));
      const float s = scales[static_cast<std::size_t>(c / bc)];
      for (; k < end; ++k) v[k] *= s;
    }
    use(first, v, n);
  });
}

// Adds v[k]² to the lanes (the pass's k-th value to lane k mod kLanes).
void accumulate(std::array<double, kLanes>& acc, const float* v, long long n) {
  long long k = 0;
  for (; k + kLanes <= n; k += kLanes)
    for (int l = 0; l < kLanes; ++l) {
      const double x = v[k + l];
      acc[static_cast<std::size_t>(l)] += x * x;
    }
  for (; k < n; ++k) {
    const double x = v[k];
    acc[static_cast<std::size_t>(k % kLanes)] += x * x;
  }
}

// `scales`: the row's grid row of scales (block-scaled matrices only).
double row_sum_squares_at(const StoredMatrix& m, const std::uint8_t* row, const std::vector<float>& scales) {
  std::array<double, kLanes> acc{};
  const auto add = [&acc](long long, const float* v, long long n) { accumulate(acc, v, n); };
  if (m.scales) {
    scaled_passes(m, row, scales, add);
    return lanes_total(acc);
  }
  switch (m.format) {  // the plain formats in place
    case StoredFormat::F32: return sum_squares(m.cols, [row](long long k) { return f32_at(row + 4 * k); });
    case StoredFormat::BF16: return sum_squares(m.cols, [row](long long k) { return bf16_at(row + 2 * k); });
    case StoredFormat::F16: return sum_squares(m.cols, [row](long long k) { return half_to_float(u16_at(row + 2 * k)); });
    default: break;
  }
  decoded_passes(m, row, add);  // blocks: a few at a time through a small buffer
  return lanes_total(acc);
}

}  // namespace

std::uint64_t BlockScales::row_bytes() const {
  return static_cast<std::uint64_t>(cols) * (e8m0 ? 1u : format_info(format).block_bytes);
}

std::uint64_t BlockScales::byte_offset_of_rows(long long first) const {
  return offset + static_cast<std::uint64_t>(first / block_rows) * row_bytes();
}

std::uint64_t BlockScales::bytes_of_rows(long long first, long long count) const {
  if (count <= 0) return 0;
  const long long grid_first = first / block_rows, grid_last = (first + count - 1) / block_rows;
  return static_cast<std::uint64_t>(grid_last - grid_first + 1) * row_bytes();
}

StoredMatrix make_stored_matrix(std::shared_ptr<const ByteSource> source, std::string tensor, StoredFormat format,
                                std::uint64_t offset, long long rows, long long cols) {
  StoredMatrix m;
  m.file = source->name();
  m.tensor = std::move(tensor);
  m.format = format;
  m.offset = offset;
  m.rows = rows;
  m.cols = cols;
  const StoredFormatInfo& f = format_info(format);
  // A weight matrix has rows and columns: an empty one would also let rows grow without
  // bytes to bound them.
  if (rows < 1 || cols < 1)
    throw WeightsError(m.file, m.tensor, "a " + std::to_string(rows) + " × " + std::to_string(cols) + " matrix is empty, not a weight");
  if (static_cast<std::uint64_t>(cols) % f.block_elements != 0)
    throw WeightsError(m.file, m.tensor,
                       "rows of " + std::to_string(cols) + " values are not a whole number of " + f.name + " blocks of " +
                           std::to_string(f.block_elements));
  m.row_bytes = static_cast<std::uint64_t>(cols) / f.block_elements * f.block_bytes;
  const std::uint64_t size = source->size();
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  const bool overflows = m.row_bytes != 0 && static_cast<std::uint64_t>(rows) > kMax / m.row_bytes;
  if (overflows || offset > size || m.bytes() > size - offset)
    throw WeightsError(m.file, m.tensor,
                       "its data (" + (overflows ? std::string("more than 2^64") : std::to_string(m.bytes())) +
                           " bytes from byte " + std::to_string(offset) + ") lies past the end of the file (" +
                           std::to_string(size) + " bytes): a truncated or partly downloaded file");
  m.source = std::move(source);
  return m;
}

void row_sum_squares(const StoredMatrix& m, long long first_row, long long count, double* out) {
  // The rows as one range: a view of the mapping, or of the range a ranged file loaded.
  const std::uint8_t* base =
      m.source->read(m.offset + static_cast<std::uint64_t>(first_row) * m.row_bytes, static_cast<std::uint64_t>(count) * m.row_bytes).data();
  std::vector<float> scales;
  long long grid_row = -1;
  for (long long r = 0; r < count; ++r) {
    const long long row = first_row + r;
    if (m.scales && row / m.scales->block_rows != grid_row) {
      grid_row = row / m.scales->block_rows;
      scale_row(*m.scales, grid_row, scales);
    }
    out[r] = row_sum_squares_at(m, base + static_cast<std::uint64_t>(r) * m.row_bytes, scales);
  }
}

std::vector<float> read_row(const StoredMatrix& m, long long row) {
  std::vector<float> out(static_cast<std::size_t>(m.cols));
  const std::uint8_t* p = m.source->read(m.offset + static_cast<std::uint64_t>(row) * m.row_bytes, m.row_bytes).data();
  const auto keep = [&out](long long first, const float* v, long long n) { std::copy(v, v + n, out.begin() + first); };
  if (!m.scales) {
    decoded_passes(m, p, keep);
    return out;
  }
  std::vector<float> scales;
  scale_row(*m.scales, row / m.scales->block_rows, scales);
  scaled_passes(m, p, scales, keep);
  return out;
}

void attach_block_scales(StoredMatrix& m, BlockScales s) {
  const std::string scale_file = s.file == m.file ? std::string() : " (in " + s.file + ")";
  const std::string named = "its scale tensor " + s.tensor + scale_file;
  if (s.block_rows < 1 || s.block_cols < 1)
    throw WeightsError(m.file, m.tensor, named + ": a block of " + std::to_string(s.block_rows) + " × " + std::to_string(s.block_cols) +
                                             " values is not a block size (both must be at least 1)");
  const long long want_rows = (m.rows + s.block_rows - 1) / s.block_rows, want_cols = (m.cols + s.block_cols - 1) / s.block_cols;
  if (s.rows != want_rows || s.cols != want_cols)
    throw WeightsError(m.file, m.tensor,
                       named + " has " + std::to_string(s.rows) + " × " + std::to_string(s.cols) + " scales, but a " +
                           std::to_string(m.rows) + " × " + std::to_string(m.cols) + " matrix in blocks of " +
                           std::to_string(s.block_rows) + " × " + std::to_string(s.block_cols) + " needs " + std::to_string(want_rows) +
                           " × " + std::to_string(want_cols) + " (ceil(rows / block) × ceil(columns / block))");
  const std::uint64_t size = s.source->size(), bytes = static_cast<std::uint64_t>(s.rows) * s.row_bytes();
  if (s.offset > size || bytes > size - s.offset)
    throw WeightsError(m.file, m.tensor, named + ": its data (" + std::to_string(bytes) + " bytes from byte " + std::to_string(s.offset) +
                                             ") lies past the end of its file (" + std::to_string(size) + " bytes)");
  m.scales = std::move(s);
}

}  // namespace pe
