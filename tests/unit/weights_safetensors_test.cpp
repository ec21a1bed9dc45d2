// safetensors header reader (pe/weights/safetensors.hpp) and checkpoints (single, sharded;
// pe/weights/safetensors_checkpoint.hpp). Files are written here (weights_test_writer.hpp,
// from the format description) and read back; every broken file of issue 26 §6 — a header
// that claims more bytes than the file, overlapping or out-of-order offsets, an unknown
// dtype, shape × dtype ≠ byte count, a missing shard — and the reference reader's other
// rules must give a WeightsError whose message names the file and the tensor.
#include <gtest/gtest.h>

#include <fstream>

#include "pe/weights/byte_source.hpp"
#include "pe/weights/safetensors.hpp"
#include "pe/weights/safetensors_checkpoint.hpp"
#include "pe/weights/stored_matrix.hpp"
#include "pe/weights/weights_error.hpp"
#include "weights_test_writer.hpp"

namespace {

using namespace pe_test;
namespace fs = std::filesystem;

pe::SafetensorsHeader parse(const Bytes& b) { return pe::parse_safetensors_header(b, "model.safetensors"); }

// The WeightsError a parse gives (a test failure if none or another exception).
pe::WeightsError parse_error(const Bytes& b, const std::string& file = "model.safetensors") {
  try {
    pe::parse_safetensors_header(b, file);
  } catch (const pe::WeightsError& e) {
    return e;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected WeightsError, got: " << e.what();
    return pe::WeightsError("", "", "");
  }
  ADD_FAILURE() << "expected WeightsError, the file was accepted";
  return pe::WeightsError("", "", "");
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

#define EXPECT_MENTIONS(err, ...)                                                     \
  for (const std::string part : std::initializer_list<std::string>{__VA_ARGS__}) EXPECT_TRUE(contains((err).what(), part)) \
      << "message lacks \"" << part << "\": " << (err).what()

// Two small tensors as a header with hand-written offsets, and 24 bytes of data.
Bytes two_tensors(const std::string& a, const std::string& b, std::size_t data_bytes = 24) {
  return SafetensorsWriter::file("{\"a.weight\":" + a + ",\"b.weight\":" + b + "}", Bytes(data_bytes, 0));
}
const std::string kA = R"({"dtype":"F32","shape":[2,2],"data_offsets":[0,16]})";
const std::string kB = R"({"dtype":"BF16","shape":[4],"data_offsets":[16,24]})";

void write(const fs::path& p, const Bytes& b) { pe_test::write_bytes(p, b); }

TEST(SafetensorsHeader, ReadsWhatTheWriterWrote) {
  SafetensorsWriter w;
  w.values("x.weight", "F32", {2, 3}, {1, 2, 3, 4, 5, 6}).values("y.weight", "BF16", {4}, {0.5, -1, 2, 8}).metadata("format", "pt");
  const Bytes b = w.bytes();
  const auto h = parse(b);
  EXPECT_EQ(h.file, "model.safetensors");
  EXPECT_EQ(h.header_size % 8, 0u);  // padded as the Rust writer does
  EXPECT_EQ(h.file_size, b.size());
  ASSERT_EQ(h.tensors.size(), 2u);
  const auto* x = h.find("x.weight");
  ASSERT_TRUE(x);
  EXPECT_EQ(x->dtype, pe::SafetensorsDtype::F32);
  EXPECT_EQ(x->shape, (std::vector<std::uint64_t>{2, 3}));
  EXPECT_EQ(x->begin, 0u);
  EXPECT_EQ(x->end, 24u);
  EXPECT_EQ(x->elements(), 6u);
  const auto* y = h.find("y.weight");
  ASSERT_TRUE(y);
  EXPECT_EQ(y->dtype, pe::SafetensorsDtype::BF16);
  EXPECT_EQ(y->begin, 24u);
  ASSERT_EQ(h.metadata.size(), 1u);
  EXPECT_EQ(h.metadata[0], (std::pair<std::string, std::string>{"format", "pt"}));
  EXPECT_EQ(h.find("z"), nullptr);
}

TEST(SafetensorsHeader, AcceptsWhitespaceAroundTheObjectAndAnyKeyOrder) {
  // tensor.rs test_whitespace_leading_padded_header: "\t\n{}\r " is valid.
  EXPECT_NO_THROW(parse(SafetensorsWriter::file("\t\n{}\r ", {})));
  // The JSON order is not the data order: the reader sorts by offsets (here b.weight's come first).
  const auto h = parse(two_tensors(kB, kA));
  EXPECT_EQ(h.tensors[0].name, "b.weight");  // listed in data order
  EXPECT_EQ(h.tensors[1].name, "a.weight");
  // Unknown fields inside an entry are ignored (TensorInfo has no deny_unknown_fields).
  EXPECT_NO_THROW(parse(two_tensors(R"({"dtype":"F32","shape":[2,2],"data_offsets":[0,16],"extra":1})", kB)));
}

TEST(SafetensorsHeader, EmptyTensorsAndScalars) {
  // A 0 in the shape: BEGIN == END; shape [] is a scalar of one element.
  const Bytes b = SafetensorsWriter::file(
      R"({"e":{"dtype":"F16","shape":[0,4],"data_offsets":[0,0]},"s":{"dtype":"F64","shape":[],"data_offsets":[0,8]}})", Bytes(8, 0));
  const auto h = parse(b);
  EXPECT_EQ(h.find("s")->elements(), 1u);
  EXPECT_EQ(h.find("e")->elements(), 0u);
}

TEST(SafetensorsHeader, EveryReferenceDtypeParses) {
  // tensor.rs Dtype and bitsize.
  const std::vector<std::pair<std::string, int>> dtypes = {
      {"BOOL", 8},     {"F4", 4},           {"F6_E2M3", 6},      {"F6_E3M2", 6}, {"U8", 8},   {"I8", 8},   {"F8_E5M2", 8}, {"F8_E4M3", 8},
      {"F8_E8M0", 8},  {"F8_E4M3FNUZ", 8}, {"F8_E5M2FNUZ", 8}, {"I16", 16},    {"U16", 16}, {"F16", 16}, {"BF16", 16},   {"I32", 32},
      {"U32", 32},     {"F32", 32},        {"C64", 64},        {"F64", 64},    {"I64", 64}, {"U64", 64}};
  for (const auto& [name, bits] : dtypes) {
    const auto d = pe::safetensors_dtype(name);
    ASSERT_TRUE(d) << name;
    EXPECT_EQ(pe::to_string(*d), name);
    EXPECT_EQ(pe::bit_size(*d), bits) << name;
    // 8 elements of it: bits bytes.
    const Bytes b = SafetensorsWriter::file("{\"t\":{\"dtype\":\"" + name + "\",\"shape\":[8],\"data_offsets\":[0," + std::to_string(bits) + "]}}",
                                            Bytes(static_cast<std::size_t>(bits), 0));
    EXPECT_NO_THROW(parse(b)) << name;
  }
  EXPECT_FALSE(pe::safetensors_dtype("f32"));  // case-sensitive
  EXPECT_FALSE(pe::safetensors_dtype("Q4_K"));
}

// ---- issue 26 §6 and the reference reader's rules ----

TEST(SafetensorsHeader, HeaderClaimingMoreBytesThanTheFile) {
  Bytes b = two_tensors(kA, kB);
  b.resize(40);  // the header alone is longer than that
  const auto e = parse_error(b);
  EXPECT_EQ(e.file(), "model.safetensors");
  EXPECT_MENTIONS(e, "model.safetensors", "claims", "truncated");
  const auto tiny = parse_error(Bytes{1, 2, 3});
  EXPECT_MENTIONS(tiny, "model.safetensors", "8-byte");
}

TEST(SafetensorsHeader, HeaderOverTheLimitIsRefusedBeforeReading) {
  Bytes b;
  put_u64(b, pe::kSafetensorsMaxHeaderSize + 1);
  b.resize(64, ' ');
  EXPECT_MENTIONS(parse_error(b), "100000000");
  // Exactly the limit is allowed (then it must still fit the file).
  Bytes c;
  put_u64(c, pe::kSafetensorsMaxHeaderSize);
  EXPECT_MENTIONS(parse_error(c), "claims 100000000");
}

TEST(SafetensorsHeader, OverlappingOffsetsNameBothTensors) {
  const auto e = parse_error(two_tensors(kA, R"({"dtype":"BF16","shape":[4],"data_offsets":[8,16]})", 16));
  EXPECT_EQ(e.tensor(), "b.weight");
  EXPECT_MENTIONS(e, "model.safetensors", "tensor b.weight", "overlaps a.weight", "[8, 16)");
}

TEST(SafetensorsHeader, OutOfOrderOffsets) {
  // END before BEGIN.
  const auto e = parse_error(two_tensors(kA, R"({"dtype":"BF16","shape":[4],"data_offsets":[24,16]})"));
  EXPECT_EQ(e.tensor(), "b.weight");
  EXPECT_MENTIONS(e, "tensor b.weight", "ends before it begins");
}

TEST(SafetensorsHeader, GapsAndTrailingBytes) {
  const auto gap = parse_error(two_tensors(kA, R"({"dtype":"BF16","shape":[4],"data_offsets":[20,28]})", 28));
  EXPECT_MENTIONS(gap, "tensor b.weight", "gap", "a.weight", "ends at 16");
  const auto late_start = parse_error(two_tensors(R"({"dtype":"F32","shape":[2,2],"data_offsets":[4,20]})",
                                                  R"({"dtype":"BF16","shape":[4],"data_offsets":[20,28]})", 28));
  EXPECT_MENTIONS(late_start, "tensor a.weight", "gap");
  const auto trailing = parse_error(two_tensors(kA, kB, 25));
  EXPECT_MENTIONS(trailing, "model.safetensors", "1 more bytes");
}

TEST(SafetensorsHeader, UnknownDtype) {
  const auto e = parse_error(two_tensors(R"({"dtype":"Q4_K","shape":[2,2],"data_offsets":[0,16]})", kB));
  EXPECT_EQ(e.tensor(), "a.weight");
  EXPECT_MENTIONS(e, "model.safetensors", "tensor a.weight", "unknown dtype \"Q4_K\"", "BF16");
}

TEST(SafetensorsHeader, ShapeTimesDtypeDisagreesWithTheByteCount) {
  const auto e = parse_error(two_tensors(R"({"dtype":"F16","shape":[2,2],"data_offsets":[0,16]})", kB));
  EXPECT_MENTIONS(e, "tensor a.weight", "holds 16 bytes", "[2, 2]", "F16", "needs 8");
  // Not a whole number of bytes (F4 × 3 = 12 bits).
  const auto half_byte = parse_error(SafetensorsWriter::file(R"({"t":{"dtype":"F4","shape":[3],"data_offsets":[0,2]}})", Bytes(2, 0)));
  EXPECT_MENTIONS(half_byte, "tensor t", "whole number of bytes");
  // Overflowing shapes.
  const auto big = parse_error(SafetensorsWriter::file(
      R"({"t":{"dtype":"F32","shape":[4294967296,4294967296,16],"data_offsets":[0,8]}})", Bytes(8, 0)));
  EXPECT_MENTIONS(big, "tensor t", "overflows");
}

TEST(SafetensorsHeader, DataPastTheEndOfTheFile) {
  const auto e = parse_error(two_tensors(kA, kB, 20));  // b.weight's 8 bytes are cut at 4
  EXPECT_EQ(e.tensor(), "b.weight");
  EXPECT_MENTIONS(e, "model.safetensors", "tensor b.weight", "past the end of the file");
}

TEST(SafetensorsHeader, MalformedHeaders) {
  EXPECT_MENTIONS(parse_error(SafetensorsWriter::file("{\"a\":", {})), "model.safetensors", "not valid JSON");
  EXPECT_MENTIONS(parse_error(SafetensorsWriter::file("[]", {})), "JSON object");
  EXPECT_MENTIONS(parse_error(SafetensorsWriter::file("{\"a\":{\"dtype\":\"F32\",\"shape\":[1]}}", {})), "tensor a", "data_offsets", "missing");
  EXPECT_MENTIONS(parse_error(SafetensorsWriter::file("{\"a\":{\"dtype\":\"F32\",\"shape\":[-1],\"data_offsets\":[0,0]}}", {})),
                  "tensor a", "a.shape[0]", "non-negative integer");
  EXPECT_MENTIONS(parse_error(SafetensorsWriter::file("{\"a\":{\"dtype\":\"F32\",\"shape\":[1.5],\"data_offsets\":[0,0]}}", {})), "a.shape[0]");
  EXPECT_MENTIONS(parse_error(SafetensorsWriter::file("{\"a\":{\"dtype\":7,\"shape\":[1],\"data_offsets\":[0,4]}}", Bytes(4, 0))),
                  "a.dtype", "string");
  EXPECT_MENTIONS(parse_error(SafetensorsWriter::file("{\"a\":[1,2]}", {})), "tensor a", "expected");
  EXPECT_MENTIONS(parse_error(SafetensorsWriter::file("{\"__metadata__\":{\"n\":1}}", {})), "__metadata__.n", "string");
  // A number past double's range (nlohmann reports it as out_of_range, not as a parse error; found by fuzz_safetensors).
  EXPECT_MENTIONS(parse_error(SafetensorsWriter::file("{\"a\":{\"shape\":[1e999]}}", {})), "model.safetensors", "not valid JSON");
  // Ill-formed UTF-8 inside a name.
  EXPECT_MENTIONS(parse_error(SafetensorsWriter::file("{\"\xff\":{}}", {})), "not valid JSON");
  // Duplicate names (the README forbids them).
  EXPECT_MENTIONS(parse_error(SafetensorsWriter::file("{\"a\":" + kA + ",\"a\":" + kA + "}", Bytes(16, 0))), "tensor a", "twice");
}

TEST(SafetensorsHeader, ErrorsNameTheFileTheyCameFrom) {
  const auto e = parse_error(two_tensors(R"({"dtype":"Q4_K","shape":[2,2],"data_offsets":[0,16]})", kB), "shards/model-00003-of-00004.safetensors");
  EXPECT_EQ(e.file(), "shards/model-00003-of-00004.safetensors");
  EXPECT_EQ(std::string(e.what()).rfind("shards/model-00003-of-00004.safetensors: tensor a.weight: ", 0), 0u) << e.what();
}

// ---- checkpoints ----

TEST(SafetensorsCheckpoint, SingleFileMatrices) {
  SafetensorsWriter w;
  w.values("m.weight", "BF16", {2, 3}, {1, 2, 3, -4, 5, 0.5}).values("v", "F32", {3}, {1, 2, 3}).tensor("i", "I8", {2, 2}, Bytes(4, 1));
  const auto c = pe::SafetensorsCheckpoint::single(pe::memory_source(w.bytes(), "one.safetensors"));
  EXPECT_EQ(c.description(), "one.safetensors");
  EXPECT_EQ(c.tensor_names(), (std::vector<std::string>{"i", "m.weight", "v"}));
  const pe::StoredMatrix m = c.matrix("m.weight");
  EXPECT_EQ(m.rows, 2);
  EXPECT_EQ(m.cols, 3);
  EXPECT_EQ(m.format, pe::StoredFormat::BF16);
  EXPECT_EQ(pe::read_row(m, 1), (std::vector<float>{-4, 5, 0.5}));
  double ss[2];
  pe::row_sum_squares(m, 0, 2, ss);
  EXPECT_EQ(ss[0], 14.0);
  EXPECT_EQ(ss[1], 41.25);
  // Not a matrix, not a dtype it reads, not there.
  try {
    c.matrix("v");
    ADD_FAILURE();
  } catch (const pe::WeightsError& e) {
    EXPECT_MENTIONS(e, "one.safetensors", "tensor v", "2-D");
  }
  try {
    c.matrix("i");
    ADD_FAILURE();
  } catch (const pe::WeightsError& e) {
    EXPECT_MENTIONS(e, "one.safetensors", "tensor i", "dtype I8", "F32, F16 and BF16");
  }
  try {
    c.matrix("nope");
    ADD_FAILURE();
  } catch (const pe::WeightsError& e) {
    EXPECT_MENTIONS(e, "one.safetensors", "tensor nope", "no such tensor");
  }
}

// Two shards and an index in a folder, as huggingface_hub writes them.
struct ShardedFolder {
  TempPath dir{"sharded"};
  ShardedFolder() {
    fs::create_directories(dir.path());
    SafetensorsWriter a, b;
    a.values("model.layers.0.self_attn.q_proj.weight", "F16", {2, 2}, {1, 2, 3, 4});
    b.values("model.layers.0.self_attn.k_proj.weight", "F32", {1, 2}, {0.5, 0.25});
    write(dir.path() / "model-00001-of-00002.safetensors", a.bytes());
    write(dir.path() / "model-00002-of-00002.safetensors", b.bytes());
    index(R"({"metadata": {"total_size": 16},
              "weight_map": {"model.layers.0.self_attn.q_proj.weight": "model-00001-of-00002.safetensors",
                             "model.layers.0.self_attn.k_proj.weight": "model-00002-of-00002.safetensors"}})");
  }
  void index(const std::string& text) const {
    std::ofstream(dir.path() / "model.safetensors.index.json") << text;
  }
};

TEST(SafetensorsCheckpoint, ShardsOpenWhenTheirTensorsAreAskedFor) {
  ShardedFolder f;
  const auto c = pe::SafetensorsCheckpoint::open(f.dir.path());
  EXPECT_NE(c.description().find("model.safetensors.index.json (2 shards)"), std::string::npos) << c.description();
  EXPECT_EQ(c.tensor_names().size(), 2u);
  EXPECT_EQ(c.shards_opened(), 0u);
  EXPECT_TRUE(c.has_tensor("model.layers.0.self_attn.k_proj.weight"));
  const auto k = c.matrix("model.layers.0.self_attn.k_proj.weight");
  EXPECT_EQ(c.shards_opened(), 1u);
  EXPECT_EQ(pe::read_row(k, 0), (std::vector<float>{0.5f, 0.25f}));
  EXPECT_NE(k.file.find("model-00002-of-00002.safetensors"), std::string::npos);
  const auto q = c.matrix("model.layers.0.self_attn.q_proj.weight");
  EXPECT_EQ(pe::read_row(q, 1), (std::vector<float>{3, 4}));
  EXPECT_EQ(c.shards_opened(), 2u);
  // The index itself and a single shard open the same way.
  EXPECT_EQ(pe::SafetensorsCheckpoint::open(f.dir.path() / "model.safetensors.index.json").tensor_names().size(), 2u);
  EXPECT_EQ(pe::SafetensorsCheckpoint::open(f.dir.path() / "model-00001-of-00002.safetensors").tensor_names().size(), 1u);
}

TEST(SafetensorsCheckpoint, MissingShardNamesTheShardAndTheTensor) {
  ShardedFolder f;
  fs::remove(f.dir.path() / "model-00002-of-00002.safetensors");
  const auto c = pe::SafetensorsCheckpoint::open(f.dir.path());
  EXPECT_NO_THROW(c.matrix("model.layers.0.self_attn.q_proj.weight"));  // the other shard is fine
  try {
    c.matrix("model.layers.0.self_attn.k_proj.weight");
    ADD_FAILURE() << "a missing shard was read";
  } catch (const pe::WeightsError& e) {
    EXPECT_EQ(e.tensor(), "model.layers.0.self_attn.k_proj.weight");
    EXPECT_MENTIONS(e, "model.safetensors.index.json", "tensor model.layers.0.self_attn.k_proj.weight", "model-00002-of-00002.safetensors",
                    "cannot open");
  }
}

TEST(SafetensorsCheckpoint, IndexAndShardDisagreeing) {
  ShardedFolder f;
  f.index(R"({"weight_map": {"model.layers.0.self_attn.k_proj.weight": "model-00001-of-00002.safetensors"}})");
  const auto c = pe::SafetensorsCheckpoint::open(f.dir.path());
  try {
    c.matrix("model.layers.0.self_attn.k_proj.weight");
    ADD_FAILURE();
  } catch (const pe::WeightsError& e) {
    EXPECT_MENTIONS(e, "model-00001-of-00002.safetensors", "tensor model.layers.0.self_attn.k_proj.weight", "does not list it");
  }
}

TEST(SafetensorsCheckpoint, BadIndexes) {
  const auto opener = [](const std::string&) { return std::shared_ptr<const pe::ByteSource>(); };
  const auto error = [&](const std::string& text) {
    try {
      pe::SafetensorsCheckpoint::sharded(text, "idx.json", opener);
    } catch (const pe::WeightsError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_TRUE(contains(error("{"), "idx.json: not valid JSON"));
  EXPECT_TRUE(contains(error(R"({"metadata": {"total_size": 1e999}, "weight_map": {}})"), "idx.json: not valid JSON"));
  EXPECT_TRUE(contains(error("{}"), "weight_map: missing"));
  EXPECT_TRUE(contains(error(R"({"weight_map": []})"), "weight_map: expected an object"));
  EXPECT_TRUE(contains(error(R"({"weight_map": {"t": 3}})"), "tensor t: weight_map.t: expected a file name"));
  EXPECT_TRUE(contains(error(R"({"weight_map": {"t": "../x.safetensors"}})"), "\"..\""));
  EXPECT_TRUE(contains(error(R"({"weight_map": {"t": "/etc/x.safetensors"}})"), "absolute"));
  // A shard the opener does not have.
  const auto c = pe::SafetensorsCheckpoint::sharded(R"({"weight_map": {"t": "s.safetensors"}})", "idx.json", opener);
  try {
    c.matrix("t");
    ADD_FAILURE();
  } catch (const pe::WeightsError& e) {
    EXPECT_MENTIONS(e, "idx.json: tensor t: its shard s.safetensors is missing");
  }
}

TEST(SafetensorsCheckpoint, FoldersAndFiles) {
  TempPath dir("folder");
  fs::create_directories(dir.path());
  try {
    pe::SafetensorsCheckpoint::open(dir.path());
    ADD_FAILURE();
  } catch (const pe::WeightsError& e) {
    EXPECT_MENTIONS(e, dir.path().string(), "no model.safetensors.index.json");
  }
  SafetensorsWriter w;
  w.values("t", "F32", {1, 1}, {2});
  write(dir.path() / "weights.safetensors", w.bytes());
  EXPECT_EQ(pe::SafetensorsCheckpoint::open(dir.path()).tensor_names(), std::vector<std::string>{"t"});  // the only one
  try {
    pe::SafetensorsCheckpoint::open(dir.path() / "absent.safetensors");
    ADD_FAILURE();
  } catch (const pe::WeightsError& e) {
    EXPECT_MENTIONS(e, "absent.safetensors", "cannot open");
  }
  // An empty file is mapped as nothing and refused by the reader.
  write(dir.path() / "empty.safetensors", {});
  try {
    pe::SafetensorsCheckpoint::open(dir.path() / "empty.safetensors");
    ADD_FAILURE();
  } catch (const pe::WeightsError& e) {
    EXPECT_MENTIONS(e, "empty.safetensors", "8-byte");
  }
}

TEST(ByteSource, MappedFilesAndMemoryLookTheSame) {
  TempPath file("bytes.bin");
  const Bytes b = {1, 2, 3, 4, 5};
  write(file.path(), b);
  const auto mapped = pe::map_file(file.path());
  EXPECT_EQ(mapped->size(), 5u);
  EXPECT_EQ(std::vector<std::uint8_t>(mapped->bytes().begin(), mapped->bytes().end()), b);
  EXPECT_EQ(mapped->mapped(), pe::file_mapping_available());
  mapped->will_read(0, 100);  // hints past the end are clipped, never faults
  mapped->done_reading(2, 1000);
  EXPECT_EQ(mapped->bytes()[4], 5);
  const auto mem = pe::memory_source(b, "mem");
  EXPECT_EQ(mem->name(), "mem");
  EXPECT_FALSE(mem->mapped());
  EXPECT_THROW(pe::map_file(fs::temp_directory_path()), pe::WeightsError);
}

}  // namespace
