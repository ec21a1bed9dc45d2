// GGUF header reader (pe/models/gguf.hpp). Files are written here byte by byte (gguf_test_writer.hpp,
// following ggml/docs/gguf.md) and read back: every value type, arrays of strings and of
// arrays, a 2 GiB tensor region declared but absent (and the same region as a sparse hole),
// a rope_freqs tensor; broken files (wrong magic, v1, big-endian, every truncation, absurd
// counts and lengths) must give a GgufError naming the key or field and the byte offset.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <limits>
#include <string>

#include "gguf_test_writer.hpp"
#include "pe/models/gguf.hpp"

namespace {

using namespace pe_test;
namespace fs = std::filesystem;

class TempFile {
 public:
  explicit TempFile(const std::string& name)
      : path_(fs::temp_directory_path() / ("pe-gguf-test-" + std::to_string(::getpid()) + "-" + name)) {}
  ~TempFile() {
    std::error_code ec;
    fs::remove(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

pe::GgufFile parse(const Bytes& b) { return pe::parse_gguf(b, "test.gguf"); }

// Runs parse and returns the GgufError (fails the test if none, or another exception).
pe::GgufError parse_error(const Bytes& b) {
  try {
    parse(b);
  } catch (const pe::GgufError& e) {
    return e;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected GgufError, got another exception: " << e.what();
    return pe::GgufError("", 0, "");
  }
  ADD_FAILURE() << "expected GgufError, the file was accepted";
  return pe::GgufError("", 0, "");
}

void overwrite_u64(Bytes& b, std::size_t at, std::uint64_t v) {
  for (int k = 0; k < 8; ++k) b[at + static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(v >> (8 * k));
}

GgufBuilder every_type() {
  GgufBuilder g;
  g.scalar("t.u8", kU8, std::uint8_t{200});
  g.scalar("t.i8", kI8, std::int8_t{-100});
  g.scalar("t.u16", kU16, std::uint16_t{65000});
  g.scalar("t.i16", kI16, std::int16_t{-32000});
  g.scalar("t.u32", kU32, std::uint32_t{4000000000u});
  g.scalar("t.i32", kI32, std::int32_t{-2000000000});
  g.scalar("t.f32", kF32, 0.1f);
  g.scalar("t.bool", kBool, std::uint8_t{1});
  g.str("t.str", "héllo \"gguf\"");
  g.scalar("t.u64", kU64, std::uint64_t{18446744073709551615ull});
  g.scalar("t.i64", kI64, std::int64_t{-9000000000000000000ll});
  g.scalar("t.f64", kF64, 1e300);
  g.arr_str("t.strings", {"<s>", "", "Ġthe", "a\nb"});
  g.arr_f32("t.floats", {1.5f, -2.0f, 3.25f});
  g.arr_u32("t.empty", {});
  // An array of two arrays of int32 (gguf.md allows nesting; llama.cpp's reader does not).
  Bytes nested;
  put_u32(nested, kArr);
  put_u64(nested, 2);
  put_u32(nested, kI32);
  put_u64(nested, 2);
  put_u32(nested, 7);
  put_u32(nested, static_cast<std::uint32_t>(-8));
  put_u32(nested, kI32);
  put_u64(nested, 1);
  put_u32(nested, 9);
  g.raw("t.nested", kArr, nested);
  Bytes bools;
  put_u32(bools, kBool);
  put_u64(bools, 3);
  bools.insert(bools.end(), {1, 0, 1});
  g.raw("t.bools", kArr, bools);
  return g;
}

TEST(GgufReader, ReadsEveryValueTypeOfAVersion3File) {
  const pe::GgufFile f = parse(every_type().bytes());
  EXPECT_EQ(f.version, 3u);
  EXPECT_EQ(f.metadata.size(), 17u);
  EXPECT_TRUE(f.tensors.empty());
  EXPECT_EQ(f.find("t.u8")->u, 200u);
  EXPECT_EQ(f.find("t.i8")->i, -100);
  EXPECT_EQ(f.find("t.u16")->u, 65000u);
  EXPECT_EQ(f.find("t.i16")->i, -32000);
  EXPECT_EQ(f.find("t.u32")->u, 4000000000u);
  EXPECT_EQ(f.find("t.i32")->i, -2000000000);
  EXPECT_EQ(f.find("t.f32")->f, static_cast<double>(0.1f));  // exactly the float32, widened
  EXPECT_EQ(f.find("t.bool")->u, 1u);
  EXPECT_EQ(f.find("t.bool")->type, pe::GgufType::Bool);
  EXPECT_EQ(f.find("t.str")->s, "héllo \"gguf\"");
  EXPECT_EQ(f.find("t.u64")->u, 18446744073709551615ull);
  EXPECT_FALSE(f.find("t.u64")->as_integer().has_value());  // above INT64_MAX
  EXPECT_EQ(f.find("t.i64")->i, -9000000000000000000ll);
  EXPECT_EQ(f.find("t.f64")->f, 1e300);

  const pe::GgufValue* s = f.find("t.strings");
  ASSERT_TRUE(s && s->is_array());
  EXPECT_EQ(s->element_type, pe::GgufType::String);
  ASSERT_EQ(s->count, 4u);
  ASSERT_EQ(s->items.size(), 4u);
  EXPECT_EQ(s->items[0].s, "<s>");
  EXPECT_EQ(s->items[1].s, "");
  EXPECT_EQ(s->items[2].s, "Ġthe");
  EXPECT_EQ(s->items[3].s, "a\nb");
  EXPECT_EQ(f.find("t.floats")->items[2].f, 3.25);
  EXPECT_EQ(f.find("t.empty")->count, 0u);

  const pe::GgufValue* n = f.find("t.nested");
  ASSERT_EQ(n->count, 2u);
  ASSERT_EQ(n->items.size(), 2u);
  EXPECT_EQ(n->items[0].element_type, pe::GgufType::Int32);
  EXPECT_EQ(n->items[0].items[1].i, -8);
  EXPECT_EQ(n->items[1].items[0].i, 9);
  EXPECT_EQ(f.find("t.bools")->items[1].u, 0u);

  // Listing text.
  EXPECT_EQ(pe::type_text(*f.find("t.floats")), "[float32 × 3]");
  EXPECT_EQ(pe::preview(*f.find("t.floats")), "[1.5, -2, 3.25]");
  EXPECT_EQ(pe::preview(*f.find("t.f32")), "0.1");
  EXPECT_EQ(pe::preview(*f.find("t.strings")), "[\"<s>\", \"\", \"Ġthe\", \"a\\nb\"]");
  EXPECT_EQ(pe::preview(*f.find("t.nested")), "[[7, -8], [9]]");
  EXPECT_EQ(pe::preview(*f.find("t.bool")), "true");
  EXPECT_EQ(pe::type_text(*f.find("t.nested")), "[array × 2]");
}

TEST(GgufReader, Version2HasTheSameLayout) {
  GgufBuilder g(2);
  g.str("general.architecture", "llama").u32("llama.context_length", 4096);
  const pe::GgufFile f = parse(g.bytes());
  EXPECT_EQ(f.version, 2u);
  EXPECT_EQ(f.find("llama.context_length")->u, 4096u);
}

TEST(GgufReader, LongArraysAreCountedNotKept) {
  std::vector<std::string> tokens(5000, "tok");
  std::vector<std::uint32_t> ids(10000, 7);
  GgufBuilder g;
  g.arr_str("tokenizer.ggml.tokens", tokens).arr_u32("ids", ids).str("after", "still read");
  const pe::GgufFile f = parse(g.bytes());
  const pe::GgufValue* t = f.find("tokenizer.ggml.tokens");
  EXPECT_EQ(t->count, 5000u);
  EXPECT_EQ(t->items.size(), pe::kGgufKeptStringArrayItems);
  EXPECT_TRUE(t->truncated);
  EXPECT_EQ(f.find("ids")->items.size(), pe::kGgufKeptArrayItems);
  EXPECT_EQ(f.find("after")->s, "still read");  // the skipped bytes were skipped exactly
  EXPECT_NE(pe::preview(*t).find("…"), std::string::npos);
}

TEST(GgufReader, WrongMagicNamesTheFirstBytes) {
  Bytes b = every_type().bytes();
  b[0] = 'X';
  const pe::GgufError e = parse_error(b);
  EXPECT_EQ(e.key(), "magic");
  EXPECT_EQ(e.offset(), 0u);
  EXPECT_NE(std::string(e.what()).find("\"XGUF\""), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("expected \"GGUF\""), std::string::npos) << e.what();
  // A JSON file handed to --gguf by mistake.
  const std::string json = "{\"rope_theta\": 10000}";
  const pe::GgufError j = parse_error(Bytes(json.begin(), json.end()));
  EXPECT_EQ(j.key(), "magic");
}

TEST(GgufReader, RefusesVersion1AndBigEndianFilesWithReasons) {
  GgufBuilder v1(1);
  const pe::GgufError e1 = parse_error(v1.bytes());
  EXPECT_EQ(e1.key(), "version");
  EXPECT_EQ(e1.offset(), 4u);
  EXPECT_NE(std::string(e1.what()).find("version 1 is not supported"), std::string::npos) << e1.what();

  // gguf-py's big-endian writer keeps the magic as "GGUF" and writes the version big-endian.
  Bytes be = every_type().bytes();
  be[4] = 0;
  be[5] = 0;
  be[6] = 0;
  be[7] = 3;
  const pe::GgufError e2 = parse_error(be);
  EXPECT_EQ(e2.key(), "version");
  EXPECT_NE(std::string(e2.what()).find("big-endian"), std::string::npos) << e2.what();

  GgufBuilder v4(4);
  EXPECT_NE(std::string(parse_error(v4.bytes()).what()).find("version 4"), std::string::npos);
}

TEST(GgufReader, EveryTruncationOfTheHeaderIsAGgufErrorAndTheRestIsOptional) {
  GgufBuilder g = every_type();
  g.f32_tensor("rope_freqs.weight", {1.0f, 2.0f, 4.0f, 8.0f});
  const Bytes full = g.bytes();
  const std::uint64_t header_end = g.header_end();
  for (std::size_t n = 0; n < header_end; ++n) {
    const Bytes cut(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
    try {
      parse(cut);
      ADD_FAILURE() << "a file cut at byte " << n << " of a " << header_end << "-byte header was accepted";
    } catch (const pe::GgufError& e) {
      EXPECT_LE(e.offset(), n) << "cut at " << n << ": " << e.what();
      EXPECT_FALSE(e.key().empty()) << "cut at " << n << ": " << e.what();
    }
  }
  // Cut anywhere after the header: the header reads, the data is reported missing.
  for (std::size_t n = header_end; n < full.size(); ++n) {
    const pe::GgufFile f = parse(Bytes(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n)));
    EXPECT_FALSE(f.data_complete());
    ASSERT_FALSE(f.diagnostics.empty());
  }
  EXPECT_TRUE(parse(full).data_complete());
}

TEST(GgufReader, TruncationInsideAValueNamesItsKeyAndOffset) {
  GgufBuilder g;
  g.str("general.architecture", "llama").u32("llama.context_length", 8192);
  const Bytes full = g.bytes();
  // Cut two bytes into the uint32 value: the last four bytes of the file.
  const Bytes cut(full.begin(), full.end() - 2);
  const pe::GgufError e = parse_error(cut);
  EXPECT_EQ(e.key(), "llama.context_length");
  EXPECT_EQ(e.offset(), full.size() - 4);
  EXPECT_NE(std::string(e.what()).find("ends inside this value"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("at byte " + std::to_string(full.size() - 4)), std::string::npos) << e.what();
}

TEST(GgufReader, AbsurdCountsAndLengthsAreRefusedBeforeAllocating) {
  const Bytes base = every_type().bytes();
  {
    Bytes b = base;
    overwrite_u64(b, 8, 1ull << 60);  // tensor_count
    const pe::GgufError e = parse_error(b);
    EXPECT_EQ(e.key(), "tensor_count");
    EXPECT_EQ(e.offset(), 8u);
    EXPECT_NE(std::string(e.what()).find("1152921504606846976 tensors cannot fit"), std::string::npos) << e.what();
  }
  {
    Bytes b = base;
    overwrite_u64(b, 16, (1ull << 63) + 5);  // metadata_kv_count (negative as int64)
    const pe::GgufError e = parse_error(b);
    EXPECT_EQ(e.key(), "metadata_kv_count");
    EXPECT_EQ(e.offset(), 16u);
  }
  {
    // A string value of 2^60 bytes.
    GgufBuilder g;
    Bytes v;
    put_u64(v, 1ull << 60);
    v.insert(v.end(), {'a', 'b'});
    g.str("general.architecture", "llama").raw("general.name", kStr, v);
    const pe::GgufError e = parse_error(g.bytes());
    EXPECT_EQ(e.key(), "general.name");
    EXPECT_NE(std::string(e.what()).find("string length 1152921504606846976"), std::string::npos) << e.what();
  }
  {
    // A string just too long for the file (below the 1 GiB limit): names the bytes left.
    GgufBuilder g;
    Bytes v;
    put_u64(v, 1000);
    v.insert(v.end(), {'a', 'b'});
    g.raw("general.name", kStr, v);
    const pe::GgufError e = parse_error(g.bytes());
    EXPECT_EQ(e.key(), "general.name");
    EXPECT_NE(std::string(e.what()).find("runs past the end of the file (2 bytes left"), std::string::npos) << e.what();
  }
  {
    // An array of 2^61 uint64 elements.
    GgufBuilder g;
    Bytes v;
    put_u32(v, kU64);
    put_u64(v, 1ull << 61);
    g.raw("llama.huge", kArr, v);
    const pe::GgufError e = parse_error(g.bytes());
    EXPECT_EQ(e.key(), "llama.huge");
    EXPECT_NE(std::string(e.what()).find("2305843009213693952 uint64 elements cannot fit"), std::string::npos) << e.what();
  }
  {
    // Arrays nested deeper than the limit.
    Bytes v;
    for (int k = 0; k < pe::kGgufMaxArrayDepth + 2; ++k) {
      put_u32(v, kArr);
      put_u64(v, 1);
    }
    put_u32(v, kU8);
    put_u64(v, 0);
    GgufBuilder g;
    g.raw("deep", kArr, v);
    EXPECT_NE(std::string(parse_error(g.bytes()).what()).find("nested more than"), std::string::npos);
  }
}

TEST(GgufReader, BadKeysTypesAndTensorInfosAreNamed) {
  {
    GgufBuilder g;
    g.u32("a", 1).u32("a", 2);
    const pe::GgufError e = parse_error(g.bytes());
    EXPECT_EQ(e.key(), "a");
    EXPECT_NE(std::string(e.what()).find("duplicate key"), std::string::npos);
  }
  {
    GgufBuilder g;
    g.raw("weird", 13, Bytes{0, 0, 0, 0});
    const pe::GgufError e = parse_error(g.bytes());
    EXPECT_EQ(e.key(), "weird");
    EXPECT_NE(std::string(e.what()).find("unknown value type 13"), std::string::npos);
  }
  {
    GgufBuilder g;
    g.f32("general.alignment", 32.0f);
    const pe::GgufError e = parse_error(g.bytes());
    EXPECT_EQ(e.key(), "general.alignment");
    EXPECT_NE(std::string(e.what()).find("must be a uint32, got float32"), std::string::npos) << e.what();
    GgufBuilder h;
    h.u32("general.alignment", 48);
    EXPECT_NE(std::string(parse_error(h.bytes()).what()).find("power of two"), std::string::npos);
  }
  {
    GgufBuilder g;
    g.tensor("five.dims", {1, 1, 1, 1, 1}, 0, 4);
    const pe::GgufError e = parse_error(g.bytes());
    EXPECT_EQ(e.key(), "five.dims");
    EXPECT_NE(std::string(e.what()).find("5 dimensions"), std::string::npos);
  }
  {
    GgufBuilder g;
    g.tensor("neg", {-4}, 0, 0);
    EXPECT_NE(std::string(parse_error(g.bytes()).what()).find("-4 elements"), std::string::npos);
  }
  {
    GgufBuilder g;
    g.tensor("q", {33}, 2 /* q4_0, blocks of 32 */, 18);
    EXPECT_NE(std::string(parse_error(g.bytes()).what()).find("not a multiple of q4_0's block of 32"), std::string::npos);
  }
  {
    GgufBuilder g;
    g.tensor("a", {4}, 0, 16).tensor("a", {4}, 0, 16);
    EXPECT_NE(std::string(parse_error(g.bytes()).what()).find("duplicate tensor name"), std::string::npos);
  }
  {
    // An offset that is not a multiple of the alignment.
    GgufBuilder g;
    g.tensor("t", {4}, 0, 16);
    Bytes b = g.bytes();
    overwrite_u64(b, static_cast<std::size_t>(g.header_end() - 8), 3);
    const pe::GgufError e = parse_error(b);
    EXPECT_EQ(e.key(), "t");
    EXPECT_NE(std::string(e.what()).find("not a multiple of general.alignment = 32"), std::string::npos) << e.what();
  }
}

TEST(GgufReader, AlignmentPlacesTheDataSection) {
  GgufBuilder g;
  g.alignment(64).u32("general.alignment", 64).f32_tensor("rope_freqs.weight", {1.0f, 2.0f, 3.0f});
  const Bytes b = g.bytes();
  const pe::GgufFile f = parse(b);
  EXPECT_EQ(f.alignment, 64u);
  EXPECT_EQ(f.data_offset % 64, 0u);
  EXPECT_EQ(f.data_offset, g.data_offset());
  EXPECT_EQ(f.data_size, 12u);  // three floats: padding after the last tensor is not required
  const auto v = pe::read_gguf_tensor(b, f, f.tensors[0], 16);
  EXPECT_EQ(v, (std::vector<float>{1.0f, 2.0f, 3.0f}));
}

TEST(GgufReader, DeclaredTwoGibRegionAbsentFromAShortFile) {
  GgufBuilder g;
  g.str("general.architecture", "llama");
  g.f32_tensor("rope_freqs.weight", {1.0f, 1.5f, 8.0f, 8.0f});
  g.tensor("blk.0.ffn_up.weight", {1ll << 29}, 0 /* f32 */, 1ull << 31);  // 2 GiB, not written
  const Bytes b = g.bytes();
  ASSERT_LT(b.size(), 4096u);
  TempFile file("short.gguf");
  write_bytes(file.path(), b);
  const pe::GgufFile f = pe::read_gguf(file.path());
  EXPECT_EQ(f.file_size, b.size());
  ASSERT_EQ(f.tensors.size(), 2u);
  EXPECT_EQ(f.tensors[1].byte_size, 1ull << 31);
  EXPECT_EQ(f.tensors[1].elements(), 1ll << 29);
  EXPECT_STREQ(pe::ggml_type_name(f.tensors[1].ggml_type), "f32");
  EXPECT_EQ(f.data_size, 32u + (1ull << 31));
  EXPECT_FALSE(f.data_complete());
  ASSERT_EQ(f.diagnostics.size(), 1u);
  EXPECT_EQ(f.diagnostics[0].severity, pe::Severity::Warning);
  EXPECT_NE(f.diagnostics[0].message.find("2.0 GiB"), std::string::npos) << f.diagnostics[0].message;
  // The positional tensor is inside the file and reads; the weights are never touched.
  EXPECT_EQ(pe::read_gguf_tensor(file.path(), f, f.tensors[0], 64), (std::vector<float>{1.0f, 1.5f, 8.0f, 8.0f}));
  try {
    pe::read_gguf_tensor(file.path(), f, f.tensors[1], 1ull << 30);
    ADD_FAILURE() << "read a tensor whose data is past the end of the file";
  } catch (const pe::GgufError& e) {
    EXPECT_EQ(e.key(), "blk.0.ffn_up.weight");
    EXPECT_NE(std::string(e.what()).find("past the end of the file"), std::string::npos) << e.what();
  }
}

TEST(GgufReader, SparseTwoGibFileOpensFromItsHeader) {
  GgufBuilder g;
  g.str("general.architecture", "llama");
  g.f32_tensor("rope_freqs.weight", {2.0f, 4.0f});
  g.tensor("big.weight", {1ll << 29}, 0, 1ull << 31);
  const Bytes b = g.bytes();
  TempFile file("sparse.gguf");
  const std::uint64_t total = g.data_offset() + g.declared_data_size();
  write_bytes(file.path(), b, total);  // a hole where the 2 GiB of weights would be
  ASSERT_EQ(fs::file_size(file.path()), total);
  const auto t0 = std::chrono::steady_clock::now();
  const pe::GgufFile f = pe::read_gguf(file.path());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(f.data_complete());
  EXPECT_TRUE(f.diagnostics.empty());
  EXPECT_EQ(pe::read_gguf_tensor(file.path(), f, f.tensors[0], 8), (std::vector<float>{2.0f, 4.0f}));
  // Not a speed target (that is gguf_bench): only proof that the 2 GiB were not read.
  EXPECT_LT(seconds, 5.0);
}

TEST(GgufReader, HalfPrecisionFactorTensorsDecode) {
  // f16: 1.0 = 0x3C00, 8.0 = 0x4800, 0.5 = 0x3800, 2^-24 (smallest subnormal) = 0x0001;
  // bf16: the upper half of the float32 bits (1.0 = 0x3F80, -2.0 = 0xC000).
  GgufBuilder g;
  g.tensor("h", {4}, 1, 8, Bytes{0x00, 0x3C, 0x00, 0x48, 0x00, 0x38, 0x01, 0x00});
  g.tensor("b", {2}, 30, 4, Bytes{0x80, 0x3F, 0x00, 0xC0});
  g.tensor("q", {32}, 2, 18, Bytes(18, 0));
  const Bytes bytes = g.bytes();
  const pe::GgufFile f = parse(bytes);
  EXPECT_EQ(pe::read_gguf_tensor(bytes, f, f.tensors[0], 8), (std::vector<float>{1.0f, 8.0f, 0.5f, std::ldexp(1.0f, -24)}));
  EXPECT_EQ(pe::read_gguf_tensor(bytes, f, f.tensors[1], 8), (std::vector<float>{1.0f, -2.0f}));
  try {
    pe::read_gguf_tensor(bytes, f, f.tensors[2], 64);
    ADD_FAILURE() << "a q4_0 tensor read as floats";
  } catch (const pe::GgufError& e) {
    EXPECT_NE(std::string(e.what()).find("expected an f32, f16 or bf16 tensor, got q4_0"), std::string::npos) << e.what();
  }
  try {
    pe::read_gguf_tensor(bytes, f, f.tensors[0], 3);
    ADD_FAILURE() << "more values than allowed were read";
  } catch (const pe::GgufError& e) {
    EXPECT_NE(std::string(e.what()).find("4 values, more than the 3"), std::string::npos) << e.what();
  }
}

TEST(GgufReader, UnknownTensorTypesAndGapsAreDiagnosticsNotErrors) {
  GgufBuilder g;
  g.tensor("new.quant", {64}, 99, 0);
  const pe::GgufFile f = parse(g.bytes());
  ASSERT_EQ(f.tensors.size(), 1u);
  EXPECT_EQ(pe::ggml_type_name(99), nullptr);
  ASSERT_FALSE(f.diagnostics.empty());
  EXPECT_NE(f.diagnostics[0].message.find("ggml type 99"), std::string::npos);
}

TEST(GgufReader, MissingFileAndDirectoryAreNamed) {
  try {
    pe::read_gguf("/nonexistent/model.gguf");
    ADD_FAILURE();
  } catch (const pe::GgufError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/model.gguf"), std::string::npos) << e.what();
  }
  try {
    pe::read_gguf(fs::temp_directory_path());
    ADD_FAILURE();
  } catch (const pe::GgufError& e) {
    EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
  }
}

}  // namespace
