// Sinusoidal position encoding, Vaswani et al. 2017, §3.5.
#include "pe/encodings/sinusoidal.hpp"

#include <algorithm>
#include <cmath>

#include "pe/base/errors.hpp"
#include "pe/encodings/rope.hpp"

namespace pe {

namespace {

void require_positions(long long first_position, long long length) {
  require_length("length", length);
  require_in_range("first_position", first_position, -kMaxLength, kMaxLength - (length - 1));
}

}  // namespace

Eigen::ArrayXd sinusoidal_frequencies(long long dim, double theta) {
  require_dim("dim", dim);
  require_theta("theta", theta);
  // Column pair i (columns 2i, 2i+1) uses 1/theta^(2i/d); an odd d adds a last lone sine.
  const long long pairs = (dim + 1) / 2;
  Eigen::ArrayXd f(pairs);
  for (long long i = 0; i < pairs; ++i) f[i] = std::pow(theta, -(2.0 * static_cast<double>(i)) / static_cast<double>(dim));
  return f;
}

double sinusoidal_value(long long position, long long column, long long dim, double theta) {
  require_dim("dim", dim);
  require_theta("theta", theta);
  require_in_range("column", column, 0, dim - 1);
  require_in_range("position", position, -kMaxLength, kMaxLength);
  const long long i = column / 2;
  const double angle = static_cast<double>(position) * std::pow(theta, -(2.0 * static_cast<double>(i)) / static_cast<double>(dim));
  return column % 2 == 0 ? std::sin(angle) : std::cos(angle);
}

void sinusoidal_table_into(TableF& out, long long length, long long dim, double theta, long long first_position) {
  const Eigen::ArrayXd freqs = sinusoidal_frequencies(dim, theta);
  require_positions(first_position, length);
  check_table_budget("sinusoidal table", length, dim, sizeof(float));

  out.resize(length, dim);  // no-op when the shape is unchanged
  PhasorRows rows(freqs, first_position);
  for (long long r = 0; r < length; r += PhasorRows::kBlock) {
    const long long count = std::min(PhasorRows::kBlock, length - r);
    rows.next_block_interleaved(count, out.data() + r * dim, dim, dim);
  }
}

TableF sinusoidal_table(long long length, long long dim, double theta, long long first_position) {
  TableF table;
  sinusoidal_table_into(table, length, dim, theta, first_position);
  return table;
}

}  // namespace pe
