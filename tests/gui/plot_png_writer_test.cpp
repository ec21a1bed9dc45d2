// write_png_atomic: a readable PNG under the final name, no temporary left behind, and
// clear errors naming the path and the system's reason.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "export/png_writer.hpp"

namespace fs = std::filesystem;

namespace {

fs::path fresh_dir(const char* name) {
  const fs::path dir = fs::temp_directory_path() / (std::string("pe_viz_png_test_") + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(PngWriter, WritesAPngAndNoTemporaryFile) {
  const fs::path dir = fresh_dir("ok");
  std::vector<unsigned char> rgba(4 * 3 * 4, 200);
  app::write_png_atomic(dir / "out.png", 4, 3, rgba);
  std::ifstream in(dir / "out.png", std::ios::binary);
  char signature[8] = {};
  in.read(signature, 8);
  EXPECT_EQ(std::string(signature + 1, 3), "PNG");
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir)) files += entry.is_regular_file() ? 1 : 0;
  EXPECT_EQ(files, 1) << "temporary file left behind";
  // Overwrites atomically.
  app::write_png_atomic(dir / "out.png", 4, 3, rgba);
  fs::remove_all(dir);
}

TEST(PngWriter, MissingDirectoryNamesPathAndReason) {
  const fs::path path = fs::temp_directory_path() / "pe_viz_no_such_dir_for_test" / "x.png";
  std::vector<unsigned char> rgba(4, 0);
  try {
    app::write_png_atomic(path, 1, 1, rgba);
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(path.string()), std::string::npos) << message;
    EXPECT_NE(message.find("No such file or directory"), std::string::npos) << message;
  }
}

TEST(PngWriter, UnwritableDirectoryIsReported) {
  // /proc accepts no new files, even for root.
  std::vector<unsigned char> rgba(4, 0);
  try {
    app::write_png_atomic("/proc/pe_viz_cannot_write_here.png", 1, 1, rgba);
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/proc/pe_viz_cannot_write_here.png"), std::string::npos) << e.what();
  }
}

TEST(PngWriter, WrongBufferSizeIsRejected) {
  std::vector<unsigned char> rgba(3, 0);
  EXPECT_THROW(app::write_png_atomic(fs::temp_directory_path() / "x.png", 1, 1, rgba), std::invalid_argument);
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
