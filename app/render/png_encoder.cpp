#include "render/png_encoder.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

namespace render {
namespace {

void put_u32(std::vector<unsigned char>& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<unsigned char>(v >> shift));
}

// A chunk: length, type, data, CRC-32 of type and data (PNG spec §5.3).
void put_chunk(std::vector<unsigned char>& out, const char* type, const unsigned char* data, std::size_t size) {
  if (size > 0x7fffffffu) throw std::runtime_error("PNG chunk too large");
  put_u32(out, static_cast<std::uint32_t>(size));
  const std::size_t at = out.size();
  out.insert(out.end(), type, type + 4);
  if (size) out.insert(out.end(), data, data + size);
  put_u32(out, static_cast<std::uint32_t>(crc32(0L, out.data() + at, static_cast<uInt>(size + 4))));
}

// Filter type byte + filtered row, into `out`: the filter with the least sum of |signed
// byte| (the usual heuristic), Paeth and Average left out for speed.
void filter_row(const unsigned char* row, const unsigned char* up, int bytes, unsigned char* sub, unsigned char* upf,
                unsigned char* out) {
  long sum_none = 0, sum_sub = 0, sum_up = 0;
  auto weight = [](unsigned char v) { return v < 128 ? long(v) : long(256 - v); };
  for (int x = 0; x < bytes; ++x) {
    sub[x] = static_cast<unsigned char>(row[x] - (x >= 4 ? row[x - 4] : 0));
    upf[x] = static_cast<unsigned char>(row[x] - (up ? up[x] : 0));
    sum_none += weight(row[x]);
    sum_sub += weight(sub[x]);
    sum_up += weight(upf[x]);
  }
  const unsigned char* best = row;
  unsigned char type = 0;
  if (sum_sub < sum_none) best = sub, type = 1, sum_none = sum_sub;
  if (sum_up < sum_none) best = upf, type = 2;
  out[0] = type;
  std::memcpy(out + 1, best, static_cast<std::size_t>(bytes));
}

struct Strip {
  int first = 0, rows = 0;
  std::vector<unsigned char> deflated;
  uLong adler = 1;
  uLong length = 0;  // filtered bytes
  std::string error;
};

void deflate_strip(Strip& s, int w, std::span<const unsigned char> rgba, bool last) {
  const int bytes = w * 4;
  const std::size_t filtered_size = std::size_t(s.rows) * std::size_t(bytes + 1);
  std::vector<unsigned char> filtered(filtered_size), sub(static_cast<std::size_t>(bytes)), upf(static_cast<std::size_t>(bytes));
  for (int r = 0; r < s.rows; ++r) {
    const int y = s.first + r;
    const unsigned char* row = rgba.data() + std::size_t(y) * std::size_t(bytes);
    filter_row(row, y > 0 ? row - bytes : nullptr, bytes, sub.data(), upf.data(), filtered.data() + std::size_t(r) * (bytes + 1));
  }
  s.length = static_cast<uLong>(filtered_size);
  s.adler = adler32(1L, filtered.data(), static_cast<uInt>(filtered_size));
  z_stream z{};
  // Raw deflate (no zlib header): the strips are joined under one header and checksum.
  if (deflateInit2(&z, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    s.error = "deflateInit2 failed";
    return;
  }
  s.deflated.resize(deflateBound(&z, static_cast<uLong>(filtered_size)) + 64);
  z.next_in = filtered.data();
  z.avail_in = static_cast<uInt>(filtered_size);
  z.next_out = s.deflated.data();
  z.avail_out = static_cast<uInt>(s.deflated.size());
  const int rc = deflate(&z, last ? Z_FINISH : Z_SYNC_FLUSH);
  if ((last && rc != Z_STREAM_END) || (!last && rc != Z_OK) || z.avail_in != 0) s.error = "deflate failed";
  s.deflated.resize(z.total_out);
  deflateEnd(&z);
}

}  // namespace

std::vector<unsigned char> encode_png(int w, int h, std::span<const unsigned char> rgba, int threads) {
  if (w < 1 || h < 1 || rgba.size() != std::size_t(w) * std::size_t(h) * 4)
    throw std::invalid_argument("encode_png: " + std::to_string(w) + "x" + std::to_string(h) + " image needs w*h*4 bytes, got " +
                                std::to_string(rgba.size()));
  if (threads <= 0) threads = int(std::clamp(std::thread::hardware_concurrency(), 1u, 8u));
  // Strips of at least 64 rows and 256 KiB: small images stay on one thread.
  const std::size_t row_bytes = std::size_t(w) * 4 + 1;
  const int min_rows = int(std::max<std::size_t>(64, (256 * 1024) / row_bytes));
  const int strips = std::clamp(h / min_rows, 1, threads);
  std::vector<Strip> parts(static_cast<std::size_t>(strips));
  for (int i = 0; i < strips; ++i) {
    parts[std::size_t(i)].first = int(std::int64_t(h) * i / strips);
    parts[std::size_t(i)].rows = int(std::int64_t(h) * (i + 1) / strips) - parts[std::size_t(i)].first;
  }
  {
    std::vector<std::thread> pool;
    for (int i = 1; i < strips; ++i) pool.emplace_back([&, i] { deflate_strip(parts[std::size_t(i)], w, rgba, i == strips - 1); });
    deflate_strip(parts[0], w, rgba, strips == 1);
    for (auto& t : pool) t.join();
  }
  std::vector<unsigned char> idat = {0x78, 0x01};  // zlib header: deflate, 32 KiB window, no dictionary
  uLong adler = parts[0].adler;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (!parts[i].error.empty()) throw std::runtime_error("encoding the PNG failed: " + parts[i].error);
    if (i > 0) adler = adler32_combine(adler, parts[i].adler, static_cast<z_off_t>(parts[i].length));
    idat.insert(idat.end(), parts[i].deflated.begin(), parts[i].deflated.end());
  }
  put_u32(idat, static_cast<std::uint32_t>(adler));

  std::vector<unsigned char> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  png.reserve(idat.size() + 64);
  std::vector<unsigned char> ihdr;
  put_u32(ihdr, static_cast<std::uint32_t>(w));
  put_u32(ihdr, static_cast<std::uint32_t>(h));
  ihdr.insert(ihdr.end(), {8, 6, 0, 0, 0});  // 8 bits, RGBA, deflate, adaptive filters, no interlace
  put_chunk(png, "IHDR", ihdr.data(), ihdr.size());
  put_chunk(png, "IDAT", idat.data(), idat.size());
  put_chunk(png, "IEND", nullptr, 0);
  return png;
}

}  // namespace render
