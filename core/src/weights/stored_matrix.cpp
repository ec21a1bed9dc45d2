// Sums of squares of stored rows. The plain formats are read in place (no copy: the bytes
// are the mapping's); block formats are decoded a few blocks at a time into a small buffer
// on the stack. Sums run in 8 independent double lanes that are added at the end in a fixed
// order: the compiler turns the lanes into vector registers without reassociating anything,
// so a row's sum does not depend on the thread or the batch it was read in.
#include "pe/weights/stored_matrix.hpp"

#include <array>
#include <cstring>
#include <limits>

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

double row_sum_squares_at(const StoredMatrix& m, const std::uint8_t* row) {
  switch (m.format) {
    case StoredFormat::F32: return sum_squares(m.cols, [row](long long k) { return f32_at(row + 4 * k); });
    case StoredFormat::BF16: return sum_squares(m.cols, [row](long long k) { return bf16_at(row + 2 * k); });
    case StoredFormat::F16: return sum_squares(m.cols, [row](long long k) { return half_to_float(u16_at(row + 2 * k)); });
    default: break;
  }
  // Block formats: a few blocks at a time through a small buffer.
  const StoredFormatInfo& f = format_info(m.format);
  constexpr std::size_t kBuffer = 1024;
  const std::size_t per_pass = kBuffer / f.block_elements;
  std::array<float, kBuffer> values;
  std::array<double, kLanes> acc{};
  const std::size_t blocks = static_cast<std::size_t>(m.cols) / f.block_elements;
  for (std::size_t b = 0; b < blocks; b += per_pass) {
    const std::size_t n = std::min(per_pass, blocks - b);
    decode_blocks(m.format, row + b * f.block_bytes, n, values.data());
    const std::size_t count = n * f.block_elements;  // a multiple of kLanes (blocks are 32 or 256)
    for (std::size_t k = 0; k < count; k += kLanes)
      for (std::size_t l = 0; l < kLanes; ++l) {
        const double v = values[k + l];
        acc[l] += v * v;
      }
  }
  return lanes_total(acc);
}

}  // namespace

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
  for (long long r = 0; r < count; ++r) out[r] = row_sum_squares_at(m, base + static_cast<std::uint64_t>(r) * m.row_bytes);
}

std::vector<float> read_row(const StoredMatrix& m, long long row) {
  std::vector<float> out(static_cast<std::size_t>(m.cols));
  const StoredFormatInfo& f = format_info(m.format);
  const std::uint8_t* p = m.source->read(m.offset + static_cast<std::uint64_t>(row) * m.row_bytes, m.row_bytes).data();
  decode_blocks(m.format, p, static_cast<std::size_t>(m.cols) / f.block_elements, out.data());
  return out;
}

}  // namespace pe
