// ascii_lower: only the 26 ASCII capitals change; lower_extension: a path's last suffix, so.
#include <gtest/gtest.h>

#include <string>

#include "pe/base/text.hpp"

TEST(Text, AsciiLowerMapsCapitalsOnly) {
  EXPECT_EQ(pe::ascii_lower("Model.GGUF"), "model.gguf");
  EXPECT_EQ(pe::ascii_lower("AZ az @[`{ 09"), "az az @[`{ 09");  // the bytes either side of A–Z and a–z stay
  EXPECT_EQ(pe::ascii_lower(""), "");
}

TEST(Text, AsciiLowerLeavesUtf8BytesAlone) {
  const std::string umlaut = "\xC3\x84" "BC";  // "ÄBC": Ä is two bytes, both ≥ 0x80
  EXPECT_EQ(pe::ascii_lower(umlaut), "\xC3\x84" "bc");
}

TEST(Text, LowerExtensionKeepsTheDotAndOnlyTheLastSuffix) {
  EXPECT_EQ(pe::lower_extension("clip.MP4"), ".mp4");
  EXPECT_EQ(pe::lower_extension("notes/Lesson.Markdown"), ".markdown");
  EXPECT_EQ(pe::lower_extension("model.Q4_K.GGUF"), ".gguf");
  EXPECT_EQ(pe::lower_extension("out.d/picture"), "");
}
