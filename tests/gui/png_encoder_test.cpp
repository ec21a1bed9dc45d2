// render::encode_png against independent decoders: stb_image gives back exactly the pixels
// encoded (noise, flat areas, gradients, odd sizes, one strip or many), and zlib's own
// inflate accepts the IDAT stream with its Adler-32 (the strips are joined correctly).
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <random>
#include <vector>

#include <stb/stb_image.h>

#include "render/png_encoder.hpp"

namespace {

std::vector<unsigned char> image(int w, int h, int kind, unsigned seed) {
  std::vector<unsigned char> px(std::size_t(w) * h * 4);
  std::mt19937 rng(seed);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 4; ++c) {
        unsigned char& v = px[(std::size_t(y) * w + x) * 4 + c];
        v = kind == 0 ? static_cast<unsigned char>(rng()) : kind == 1 ? static_cast<unsigned char>(c == 3 ? 255 : 40 * c)
                                                                    : static_cast<unsigned char>((x * 3 + y * 5 + c * 60) & 0xff);
      }
  return px;
}

std::uint32_t be32(const unsigned char* p) { return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3]; }

// The concatenated IDAT data of a PNG.
std::vector<unsigned char> idat(const std::vector<unsigned char>& png) {
  std::vector<unsigned char> out;
  for (std::size_t at = 8; at + 12 <= png.size();) {
    const std::uint32_t len = be32(&png[at]);
    if (std::equal(png.begin() + at + 4, png.begin() + at + 8, "IDAT")) out.insert(out.end(), png.begin() + at + 8, png.begin() + at + 8 + len);
    at += 12 + len;
  }
  return out;
}

TEST(PngEncoder, DecodesToTheSamePixelsWithEveryStripCount) {
  struct Case {
    int w, h, kind;
  };
  for (const Case c : {Case{1, 1, 0}, Case{7, 3, 2}, Case{641, 359, 2}, Case{1000, 700, 0}, Case{1920, 1080, 1}, Case{333, 2000, 2}}) {
    const auto px = image(c.w, c.h, c.kind, unsigned(c.w * 31 + c.h));
    for (int threads : {1, 2, 5}) {
      SCOPED_TRACE(std::to_string(c.w) + "x" + std::to_string(c.h) + " kind " + std::to_string(c.kind) + ", " +
                   std::to_string(threads) + " threads");
      const std::vector<unsigned char> png = render::encode_png(c.w, c.h, px, threads);
      int w = 0, h = 0, n = 0;
      unsigned char* back = stbi_load_from_memory(png.data(), int(png.size()), &w, &h, &n, 4);
      ASSERT_NE(back, nullptr) << stbi_failure_reason();
      EXPECT_EQ(w, c.w);
      EXPECT_EQ(h, c.h);
      EXPECT_EQ(n, 4);
      EXPECT_TRUE(std::equal(px.begin(), px.end(), back));
      stbi_image_free(back);
      // zlib checks the header, every block and the combined Adler-32.
      const std::vector<unsigned char> stream = idat(png);
      std::vector<unsigned char> raw(std::size_t(c.w * 4 + 1) * c.h);
      uLongf raw_len = uLongf(raw.size());
      EXPECT_EQ(uncompress(raw.data(), &raw_len, stream.data(), uLong(stream.size())), Z_OK);
      EXPECT_EQ(raw_len, raw.size());
    }
  }
}

TEST(PngEncoder, RejectsABufferOfTheWrongSize) {
  std::vector<unsigned char> px(10);
  EXPECT_THROW(render::encode_png(2, 2, px), std::invalid_argument);
  EXPECT_THROW(render::encode_png(0, 2, px), std::invalid_argument);
}

}  // namespace
