// Hugging Face config.json parsing: real shapes of files, and every way a file can be
// wrong must end in a ConfigError naming the key — never another exception or a crash.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include "pe/models/config.hpp"
#include "pe/base/errors.hpp"

namespace {

using pe::ConfigError;
using pe::RopeType;

const char* kLlama31 = R"({
  "architectures": ["LlamaForCausalLM"],
  "hidden_size": 4096,
  "num_attention_heads": 32,
  "num_key_value_heads": 8,
  "max_position_embeddings": 131072,
  "rope_theta": 500000.0,
  "rope_scaling": {
    "factor": 8.0,
    "low_freq_factor": 1.0,
    "high_freq_factor": 4.0,
    "original_max_position_embeddings": 8192,
    "rope_type": "llama3"
  },
  "torch_dtype": "bfloat16"
})";

// Returns the key of the ConfigError the text produces ("(accepted)" if none).
std::string error_key(const std::string& text, std::string* message = nullptr) {
  try {
    pe::parse_hf_config(text);
  } catch (const ConfigError& e) {
    if (message) *message = e.what();
    return e.key();
  }
  return "(accepted)";
}

// Replaces the first occurrence of `from` in kLlama31.
std::string llama_with(const std::string& from, const std::string& to) {
  std::string s = kLlama31;
  const auto at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

TEST(Config, ParsesLlama31) {
  const auto c = pe::parse_hf_config(kLlama31, "llama");
  EXPECT_EQ(c.name, "llama");
  EXPECT_EQ(c.theta, 500000.0);
  EXPECT_EQ(c.head_dim, 128);  // hidden_size / num_attention_heads
  EXPECT_EQ(c.max_position_embeddings, 131072);
  EXPECT_EQ(c.partial_rotary_factor, 1.0);
  EXPECT_EQ(c.convention, pe::PairConvention::HalfSplit);
  EXPECT_EQ(c.scaling.type, RopeType::Llama3);
  EXPECT_EQ(c.scaling.factor, 8.0);
  EXPECT_EQ(c.scaling.low_freq_factor, 1.0);
  EXPECT_EQ(c.scaling.high_freq_factor, 4.0);
  EXPECT_EQ(c.scaling.original_max_position_embeddings, 8192);
  EXPECT_EQ(c.original_max_position_embeddings(), 8192);
}

TEST(Config, DefaultsAndAlternativeSpellings) {
  // No rope_theta → 10000 (HF default); rope_scaling null → default.
  auto c = pe::parse_hf_config(R"({"head_dim": 64, "max_position_embeddings": 2048, "rope_scaling": null})");
  EXPECT_EQ(c.theta, 10000.0);
  EXPECT_EQ(c.scaling.type, RopeType::Default);
  // GPT-NeoX: rotary_emb_base, rotary_pct.
  c = pe::parse_hf_config(
      R"({"hidden_size": 6144, "num_attention_heads": 64, "rotary_pct": 0.25, "rotary_emb_base": 10000, "max_position_embeddings": 2048})");
  EXPECT_EQ(c.head_dim, 96);
  EXPECT_EQ(c.rotary_dim(), 24);
  // GPT-J: rotary_dim in dims, n_positions.
  c = pe::parse_hf_config(R"({"n_embd": 4096, "head_dim": 256, "rotary_dim": 64, "n_positions": 2048})");
  EXPECT_EQ(c.rotary_dim(), 64);
  EXPECT_EQ(c.max_position_embeddings, 2048);
  // Old "type" key; integral floats accepted for integers.
  c = pe::parse_hf_config(R"({"head_dim": 128, "max_position_embeddings": 4096.0, "rope_scaling": {"type": "linear", "factor": 4}})");
  EXPECT_EQ(c.scaling.type, RopeType::Linear);
  EXPECT_EQ(c.scaling.factor, 4.0);
  // "su" is Phi-3's first name for longrope; original_max_position_embeddings at top level.
  std::string lists = "[";
  for (int i = 0; i < 48; ++i) lists += std::string(i ? "," : "") + "1.5";
  lists += "]";
  c = pe::parse_hf_config(R"({"hidden_size": 3072, "num_attention_heads": 32, "max_position_embeddings": 131072,
      "original_max_position_embeddings": 4096,
      "rope_scaling": {"type": "su", "short_factor": )" + lists + R"(, "long_factor": )" + lists + "}}");
  EXPECT_EQ(c.scaling.type, RopeType::LongRope);
  EXPECT_EQ(c.scaling.original_max_position_embeddings, 4096);
  EXPECT_EQ(c.scaling.short_factor.size(), 48u);
  // DeepSeek: qk_rope_head_dim is the rotary head dim; rope_interleave → interleaved.
  c = pe::parse_hf_config(R"({"hidden_size": 7168, "num_attention_heads": 128, "qk_nope_head_dim": 128,
      "qk_rope_head_dim": 64, "max_position_embeddings": 163840, "rope_interleave": true,
      "rope_scaling": {"type": "yarn", "factor": 40, "mscale": 1.0, "mscale_all_dim": 1.0, "beta_fast": 32,
                       "beta_slow": 1, "original_max_position_embeddings": 4096}})");
  EXPECT_EQ(c.head_dim, 64);
  EXPECT_EQ(c.convention, pe::PairConvention::Interleaved);
  EXPECT_EQ(c.scaling.mscale_all_dim.value_or(-1), 1.0);
  // transformers v5: rope_parameters holds theta and the type.
  c = pe::parse_hf_config(R"({"head_dim": 128, "max_position_embeddings": 32768,
      "rope_parameters": {"rope_type": "yarn", "rope_theta": 1000000.0, "factor": 4.0,
                          "original_max_position_embeddings": 32768, "truncate": false}})");
  EXPECT_EQ(c.theta, 1e6);
  EXPECT_EQ(c.scaling.type, RopeType::Yarn);
  EXPECT_FALSE(c.scaling.truncate);
  // pe-viz fields.
  c = pe::parse_hf_config(R"({"pe_viz_name": "x", "pe_viz_title": "X", "pe_viz_source": "s",
      "pe_viz_convention": "interleaved", "head_dim": 8, "max_position_embeddings": 16})");
  EXPECT_EQ(c.name, "x");
  EXPECT_EQ(c.title, "X");
  EXPECT_EQ(c.source, "s");
  EXPECT_EQ(c.convention, pe::PairConvention::Interleaved);
}

TEST(Config, WrongTypesNameTheKey) {
  std::string msg;
  EXPECT_EQ(error_key(llama_with("\"factor\": 8.0", "\"factor\": \"8\""), &msg), "rope_scaling.factor");
  EXPECT_NE(msg.find("rope_scaling.factor: expected a number, got string"), std::string::npos) << msg;
  EXPECT_EQ(error_key(llama_with("\"rope_theta\": 500000.0", "\"rope_theta\": true")), "rope_theta");
  EXPECT_EQ(error_key(llama_with("\"hidden_size\": 4096", "\"hidden_size\": [4096]")), "hidden_size");
  EXPECT_EQ(error_key(llama_with("\"hidden_size\": 4096", "\"hidden_size\": 4096.5")), "hidden_size");
  EXPECT_EQ(error_key(llama_with("\"rope_type\": \"llama3\"", "\"rope_type\": 3")), "rope_scaling.rope_type");
  EXPECT_EQ(error_key(llama_with("\"rope_scaling\": {", "\"rope_scaling\": \"llama3\", \"x\": {")), "rope_scaling");
  EXPECT_EQ(error_key(R"({"head_dim": 8, "max_position_embeddings": 16, "pe_viz_convention": "diagonal"})"),
            "pe_viz_convention");
  EXPECT_EQ(error_key(R"({"head_dim": 8, "max_position_embeddings": 16, "rope_interleave": "yes"})"), "rope_interleave");
  EXPECT_EQ(error_key(R"({"head_dim": 96, "max_position_embeddings": 16,
      "rope_scaling": {"type": "longrope", "short_factor": 1.0, "long_factor": []}})"),
            "rope_scaling.short_factor");
  EXPECT_EQ(error_key(R"({"head_dim": 4, "max_position_embeddings": 16,
      "rope_scaling": {"type": "longrope", "short_factor": [1, 1], "long_factor": [1, "2"]}})"),
            "rope_scaling.long_factor[1]");
}

TEST(Config, MissingKeys) {
  std::string msg;
  EXPECT_EQ(error_key(R"({"max_position_embeddings": 16})", &msg), "head_dim");
  EXPECT_EQ(error_key(R"({"hidden_size": 64, "max_position_embeddings": 16})"), "num_attention_heads");
  EXPECT_EQ(error_key(R"({"head_dim": 64})"), "max_position_embeddings");
  EXPECT_EQ(error_key(llama_with("\"factor\": 8.0,", "")), "rope_scaling.factor");
  EXPECT_EQ(error_key(llama_with("\"low_freq_factor\": 1.0,", "")), "rope_scaling.low_freq_factor");
  // transformers v5 fills a llama3 block's missing original_max_position_embeddings with
  // max_position_embeddings (standardize_rope_params) and only warns: accepted, and the
  // warning is a diagnostic (config_diagnostics_test).
  EXPECT_EQ(error_key(llama_with("\"original_max_position_embeddings\": 8192,", "")), "(accepted)");
  EXPECT_EQ(error_key(llama_with(",\n    \"rope_type\": \"llama3\"", "")), "rope_scaling.rope_type");
  EXPECT_EQ(error_key(R"({"head_dim": 96, "max_position_embeddings": 16, "rope_scaling": {"type": "longrope", "long_factor": []}})"),
            "rope_scaling.short_factor");
  EXPECT_EQ(error_key(R"({"head_dim": 64, "max_position_embeddings": 16, "rope_scaling": {"type": "yarn"}})"),
            "rope_scaling.factor");
}

TEST(Config, BadValuesNameTheKey) {
  std::string msg;
  EXPECT_EQ(error_key(llama_with("\"rope_theta\": 500000.0", "\"rope_theta\": 1e400"), &msg), "rope_theta");
  EXPECT_NE(msg.find("1e400"), std::string::npos) << msg;
  EXPECT_EQ(error_key(llama_with("\"rope_theta\": 500000.0", "\"rope_theta\": -1e400")), "rope_theta");
  EXPECT_EQ(error_key(llama_with("\"rope_theta\": 500000.0", "\"rope_theta\": 0.5")), "rope_theta");
  EXPECT_EQ(error_key(R"({"head_dim": -64, "max_position_embeddings": 16})"), "head_dim");
  EXPECT_EQ(error_key(R"({"head_dim": 0, "max_position_embeddings": 16})"), "head_dim");
  EXPECT_EQ(error_key(R"({"head_dim": 1e30, "max_position_embeddings": 16})"), "head_dim");
  EXPECT_EQ(error_key(R"({"head_dim": 18446744073709551615, "max_position_embeddings": 16})"), "head_dim");
  EXPECT_EQ(error_key(R"({"head_dim": 99999999999999999999999, "max_position_embeddings": 16})"), "head_dim");
  EXPECT_EQ(error_key(R"({"head_dim": 64, "max_position_embeddings": -1})"), "max_position_embeddings");
  EXPECT_EQ(error_key(R"({"hidden_size": 64, "num_attention_heads": 0, "max_position_embeddings": 16})"),
            "num_attention_heads");
  EXPECT_EQ(error_key(R"({"hidden_size": 4, "num_attention_heads": 8, "max_position_embeddings": 16})"), "hidden_size");
  EXPECT_EQ(error_key(R"({"head_dim": 64, "max_position_embeddings": 16, "partial_rotary_factor": 2})"),
            "partial_rotary_factor");
  EXPECT_EQ(error_key(R"({"head_dim": 64, "max_position_embeddings": 16, "rotary_dim": 128})"), "rotary_dim");
  EXPECT_EQ(error_key(llama_with("\"factor\": 8.0", "\"factor\": 0.5")), "rope_scaling.factor");
  EXPECT_EQ(error_key(llama_with("\"factor\": 8.0", "\"factor\": 1e999")), "rope_scaling.factor");
  // high_freq_factor <= low_freq_factor: transformers warns and computes (Llama 4 Scout ships
  // low == high), so it is accepted; a factor <= 0 is not.
  EXPECT_EQ(error_key(llama_with("\"high_freq_factor\": 4.0", "\"high_freq_factor\": 0.5")), "(accepted)");
  EXPECT_EQ(error_key(llama_with("\"high_freq_factor\": 4.0", "\"high_freq_factor\": -1")), "rope_scaling.high_freq_factor");
  // Validation errors keep the name of the block the file used.
  EXPECT_EQ(error_key(R"({"head_dim": 64, "max_position_embeddings": 16,
      "rope_parameters": {"rope_type": "linear", "factor": 0.25}})"),
            "rope_parameters.factor");
  EXPECT_EQ(error_key(R"({"head_dim": 64, "max_position_embeddings": 16,
      "rope_scaling": {"type": "yarn", "factor": 2, "beta_fast": 1, "beta_slow": 32}})"),
            "rope_scaling.beta_fast");
  // longrope lists must have rotary_dim / 2 entries.
  EXPECT_EQ(error_key(R"({"head_dim": 8, "max_position_embeddings": 16,
      "rope_scaling": {"type": "longrope", "short_factor": [1, 1, 1], "long_factor": [1, 1, 1, 1]}})", &msg),
            "rope_scaling.short_factor");
  EXPECT_NE(msg.find("4 values"), std::string::npos) << msg;
}

TEST(Config, UnknownRopeType) {
  std::string msg;
  EXPECT_EQ(error_key(llama_with("\"rope_type\": \"llama3\"", "\"rope_type\": \"llama4\""), &msg),
            "rope_scaling.rope_type");
  EXPECT_NE(msg.find("llama4"), std::string::npos);
  EXPECT_NE(msg.find("longrope"), std::string::npos) << "lists the valid types: " << msg;
  EXPECT_EQ(error_key(R"({"head_dim": 8, "max_position_embeddings": 16, "rope_scaling": {"type": "xpos", "factor": 2}})"),
            "rope_scaling.type");
}

TEST(Config, SyntaxErrorsGivePosition) {
  std::string msg;
  EXPECT_EQ(error_key("", &msg), "");
  EXPECT_NE(msg.find("line 1"), std::string::npos) << msg;
  // NaN is not JSON: a syntax error, reported in the key it was found in.
  EXPECT_EQ(error_key("{\n  \"head_dim\": 64,\n  \"max_position_embeddings\": NaN\n}", &msg),
            "max_position_embeddings");
  EXPECT_NE(msg.find("line 3"), std::string::npos) << msg;
  EXPECT_EQ(error_key(std::string(kLlama31).substr(0, 300), &msg), "rope_scaling");  // truncated inside the block
  EXPECT_EQ(error_key(R"({"head_dim": 4, "rope_scaling": {"long_factor": [1, 2, 3.]}})"), "rope_scaling.long_factor[2]");
  EXPECT_EQ(error_key("{\"head_dim\": 64,}", &msg), "");
  EXPECT_EQ(error_key("[1, 2, 3]", &msg), "");
  EXPECT_NE(msg.find("object"), std::string::npos) << msg;
  EXPECT_EQ(error_key("null"), "");
  EXPECT_EQ(error_key("\"config\""), "");
  EXPECT_EQ(error_key(std::string("{\"head_dim\": 64, \"x\": \"\xff\xfe\"}")), "x");  // invalid UTF-8
  const std::string deep = error_key(std::string(100000, '['));  // deep nesting, truncated
  EXPECT_LT(deep.size(), 200u);
}

// Every prefix of a valid file and many random corruptions: only ConfigError may come out.
TEST(Config, TruncationsAndCorruptionsNeverCrash) {
  const std::string full = kLlama31;
  int errors = 0;
  for (std::size_t n = 0; n < full.size(); ++n) {
    try {
      pe::parse_hf_config(full.substr(0, n));
    } catch (const ConfigError&) {
      ++errors;
    }
  }
  EXPECT_EQ(errors, static_cast<int>(full.size()));  // no proper prefix is a whole object
  std::mt19937 rng(12345);
  const std::string alphabet = "{}[]\",:0123456789.eE+-truefalsnl \n\\x";
  for (int trial = 0; trial < 3000; ++trial) {
    std::string s = full;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = rng() % s.size();
      switch (rng() % 3) {
        case 0: s[at] = alphabet[rng() % alphabet.size()]; break;
        case 1: s.erase(at, 1 + rng() % 8); break;
        default: s.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
      }
      if (s.empty()) s.assign(1, '{');
    }
    try {
      const auto c = pe::parse_hf_config(s);
      pe::validate(c);  // whatever was accepted is valid
    } catch (const ConfigError&) {
    } catch (const std::exception& e) {
      ADD_FAILURE() << "unexpected exception " << e.what() << " for:\n" << s;
    }
  }
}

TEST(Config, LoadFromFile) {
  const auto dir = std::filesystem::temp_directory_path() / "pe_viz_config_test" / "Llama-3.1-8B";
  std::filesystem::create_directories(dir);
  const auto file = dir / "config.json";
  {
    std::ofstream out(file);
    out << kLlama31;
  }
  const auto c = pe::load_hf_config(file);
  EXPECT_EQ(c.name, "Llama-3.1-8B");  // named after the model directory
  EXPECT_EQ(c.scaling.type, RopeType::Llama3);
  std::filesystem::remove_all(dir.parent_path());

  try {
    pe::load_hf_config(dir / "missing.json");
    ADD_FAILURE() << "no error for a missing file";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("missing.json"), std::string::npos) << e.what();
  }
  EXPECT_THROW(pe::load_hf_config(std::filesystem::temp_directory_path()), ConfigError);  // a directory
}

}  // namespace
