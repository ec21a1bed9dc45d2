// `pe-viz dump` (issue 3), run as a child process (PE_VIZ_BINARY): its JSON is checked
// against formulas written out here in double precision, not against core:
//  - Llama 3.1 8B: the llama3 wavelength-band scaling (Meta's / Hugging Face's
//    `_compute_llama3_parameters`): θ 500000, d 128, factor 8, low_freq_factor 1,
//    high_freq_factor 4, original_max_position_embeddings 8192;
//  - every preset from `dump --list-presets` round-trips: the output parses, its theta /
//    head_dim / rotary_dim match pe::load_preset(key), its unscaled frequencies are
//    theta^(−2i/rotary_dim) and its wavelengths 2π/inv_freq;
//  - the presets carry the models' published config values;
//  - bad input: non-zero exit, message on stderr naming the problem, nothing on stdout.
#include <nlohmann/json.hpp>
#include <numbers>

#include "pe/models/config.hpp"
#include "test_support.hpp"

namespace {

using namespace pe_test;
using nlohmann::json;

class DumpTest : public ::testing::Test {
 protected:
  TempDir home;
  CommandResult run(const std::string& args) { return run_pe_viz("dump " + args, home.path()); }
  json run_json(const std::string& args) {
    const CommandResult r = run(args);
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    try {
      return json::parse(r.out);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "dump " << args << " printed no valid JSON: " << e.what() << "\n" << describe(r);
      return json();
    }
  }
};

double rel_diff(double a, double b) { return std::abs(a - b) / std::max(std::abs(a), std::abs(b)); }

// null (a wavelength of a pair that does not turn) reads as infinity.
std::vector<double> as_doubles(const json& j) {
  std::vector<double> v;
  for (const auto& x : j) v.push_back(x.is_null() ? INFINITY : x.get<double>());
  return v;
}

// Hugging Face _compute_llama3_parameters, written out:
//   wavelen = 2π / inv_freq
//   wavelen < L_orig / high_freq_factor: unchanged (high frequency)
//   wavelen > L_orig / low_freq_factor: inv_freq / factor (low frequency)
//   otherwise smooth = (L_orig / wavelen − low) / (high − low),
//             inv_freq · ((1 − smooth) / factor + smooth)
std::vector<double> llama3_inv_freq(double theta, int d, double factor, double low, double high, double l_orig) {
  std::vector<double> out;
  for (int i = 0; i < d / 2; ++i) {
    const double f = 1.0 / std::pow(theta, 2.0 * i / d);
    const double wavelen = 2.0 * std::numbers::pi / f;
    if (wavelen < l_orig / high) out.push_back(f);
    else if (wavelen > l_orig / low) out.push_back(f / factor);
    else {
      const double smooth = (l_orig / wavelen - low) / (high - low);
      out.push_back((1.0 - smooth) * f / factor + smooth * f);
    }
  }
  return out;
}

TEST_F(DumpTest, Llama31InverseFrequenciesMatchTheLlama3Formula) {
  const json j = run_json("--preset llama-3.1-8b");
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j.at("theta").get<double>(), 500000.0);
  EXPECT_EQ(j.at("head_dim").get<long long>(), 128);
  EXPECT_EQ(j.at("rotary_dim").get<long long>(), 128);
  EXPECT_EQ(j.at("scaling").at("type"), "llama3");
  EXPECT_EQ(j.at("scaling").at("factor").get<double>(), 8.0);
  EXPECT_EQ(j.at("scaling").at("low_freq_factor").get<double>(), 1.0);
  EXPECT_EQ(j.at("scaling").at("high_freq_factor").get<double>(), 4.0);
  EXPECT_EQ(j.at("scaling").at("original_max_position_embeddings").get<long long>(), 8192);
  EXPECT_EQ(j.at("attention_factor").get<double>(), 1.0);  // llama3 does not scale cos/sin

  const std::vector<double> expected = llama3_inv_freq(500000.0, 128, 8.0, 1.0, 4.0, 8192.0);
  const std::vector<double> got = as_doubles(j.at("inv_freq"));
  const std::vector<double> original = as_doubles(j.at("original_inv_freq"));
  ASSERT_EQ(got.size(), 64u);
  ASSERT_EQ(original.size(), 64u);
  int unchanged = 0, divided = 0, blended = 0;
  for (int i = 0; i < 64; ++i) {
    SCOPED_TRACE("pair " + std::to_string(i));
    EXPECT_LE(rel_diff(got[i], expected[i]), 1e-12) << got[i] << " vs " << expected[i];
    const double f = 1.0 / std::pow(500000.0, 2.0 * i / 128);
    EXPECT_LE(rel_diff(original[i], f), 1e-12);
    // The three bands, stated directly.
    const double wavelen = 2 * std::numbers::pi / f;
    if (wavelen < 2048) {
      ++unchanged;
      EXPECT_LE(rel_diff(got[i], f), 1e-12);
    } else if (wavelen > 8192) {
      ++divided;
      EXPECT_LE(rel_diff(got[i], f / 8), 1e-12);
    } else {
      ++blended;
      EXPECT_LT(got[i], f);
      EXPECT_GT(got[i], f / 8);
    }
  }
  EXPECT_GT(unchanged, 0);
  EXPECT_GT(divided, 0);
  EXPECT_GT(blended, 0);
  // The blend ratio inv_freq / original falls monotonically from 1 to 1/8 through the band.
  for (int i = 1; i < 64; ++i) EXPECT_LE(got[i] / original[i], got[i - 1] / original[i - 1] + 1e-15) << i;
  const std::vector<double> wl = as_doubles(j.at("wavelengths"));
  ASSERT_EQ(wl.size(), 64u);
  for (int i = 0; i < 64; ++i) EXPECT_LE(rel_diff(wl[i], 2 * std::numbers::pi / expected[i]), 1e-12) << i;
}

TEST_F(DumpTest, EveryListedPresetRoundTrips) {
  const json list = run_json("--list-presets");
  ASSERT_TRUE(list.is_array());
  EXPECT_GE(list.size(), 11u) << "issue 3 asks for at least 10 model presets plus the teaching one";
  std::set<std::string> keys;
  for (const auto& p : list) {
    const std::string key = p.at("key").get<std::string>();
    SCOPED_TRACE(key);
    EXPECT_TRUE(keys.insert(key).second) << "duplicate preset key";
    EXPECT_FALSE(p.at("title").get<std::string>().empty());
    EXPECT_FALSE(p.at("source").get<std::string>().empty()) << "every preset names its source";
    // GPT-2, T5, BLOOM … (issue 33) do not rotate: their dump is their family, no inv_freq.
    if (p.at("position_encoding") != "rope") {
      const json f = run_json("--preset " + shell_quote(key));
      EXPECT_EQ(f.at("position_encoding"), p.at("position_encoding"));
      EXPECT_FALSE(f.contains("inv_freq"));
      continue;
    }

    const json j = run_json("--preset " + shell_quote(key));
    ASSERT_TRUE(j.is_object());
    const pe::RopeConfig c = pe::load_preset(key);
    EXPECT_EQ(j.at("name"), key);
    EXPECT_EQ(j.at("theta").get<double>(), c.theta);
    EXPECT_EQ(j.at("head_dim").get<long long>(), c.head_dim);
    EXPECT_EQ(j.at("rotary_dim").get<long long>(), c.rotary_dim());
    EXPECT_EQ(j.at("partial_rotary_factor").get<double>(), c.partial_rotary_factor);
    EXPECT_EQ(j.at("scaling").at("type"), pe::to_string(c.scaling.type));
    // rotary_dim = floor(head_dim · partial_rotary_factor), even.
    const long long rd = j.at("rotary_dim").get<long long>();
    EXPECT_EQ(rd % 2, 0);
    EXPECT_LE(rd, c.head_dim);
    EXPECT_GE(rd, static_cast<long long>(std::floor(c.head_dim * c.partial_rotary_factor)) - 1);
    // Unscaled frequencies: HF's 1 / theta^(arange(0, rotary_dim, 2) / rotary_dim).
    const auto original = as_doubles(j.at("original_inv_freq"));
    const auto inv = as_doubles(j.at("inv_freq"));
    const auto wl = as_doubles(j.at("wavelengths"));
    ASSERT_EQ(original.size(), std::size_t(rd / 2));
    ASSERT_EQ(inv.size(), std::size_t(rd / 2));
    ASSERT_EQ(wl.size(), std::size_t(rd / 2));
    for (long long i = 0; i < rd / 2; ++i) {
      EXPECT_LE(rel_diff(original[i], 1.0 / std::pow(c.theta, 2.0 * i / rd)), 1e-12) << "pair " << i;
      // Every pair turns but proportional RoPE's dropped ones (frequency 0, no wavelength: null).
      const bool turns = i < c.rotating_pairs();
      EXPECT_TRUE(std::isfinite(inv[i]) && (turns ? inv[i] > 0 : inv[i] == 0)) << "pair " << i;
      if (turns) EXPECT_LE(rel_diff(wl[i], 2 * std::numbers::pi / inv[i]), 1e-12) << "pair " << i;
      else EXPECT_TRUE(std::isinf(wl[i])) << "pair " << i << " (null in the JSON)";
      if (c.scaling.type == pe::RopeType::Default) {
        EXPECT_EQ(inv[i], original[i]) << "pair " << i;
      }
    }
    EXPECT_GT(j.at("attention_factor").get<double>(), 0.0);
  }
  EXPECT_TRUE(keys.count("teaching"));
  EXPECT_TRUE(keys.count("llama-3.1-8b"));
}

// Published config.json values (Hugging Face model repositories) for the models issue 3
// names: rope_theta, and the head dimension hidden_size / num_attention_heads (or head_dim),
// rotary part from partial_rotary_factor / rotary_pct.
TEST_F(DumpTest, PresetsCarryThePublishedModelValues) {
  struct Published {
    const char* key;
    double theta;  // 0: not checked
    long long head_dim, rotary_dim;
  };
  const Published published[] = {
      {"teaching", 10000, 64, 64},          // issue 3: d = 64, base 10000
      {"llama-2-7b", 10000, 128, 128},      // 4096 / 32
      {"code-llama-7b", 1e6, 128, 128},     // base 1e6
      {"llama-3.1-8b", 500000, 128, 128},   // 4096 / 32
      {"gpt-neox-20b", 10000, 96, 24},      // 6144 / 64, rotary_pct 0.25
      {"phi-2", 10000, 80, 32},             // 2560 / 32, partial_rotary_factor 0.4
      {"qwen2.5-7b", 1e6, 128, 128},        // 3584 / 28
      {"gemma-2-9b", 10000, 256, 256},      // head_dim 256
      {"phi-3-mini-128k", 10000, 96, 96},   // 3072 / 32
  };
  std::set<std::string> keys;
  for (const auto& p : pe::list_presets()) keys.insert(p.key);
  for (const auto& p : published) {
    SCOPED_TRACE(p.key);
    if (!keys.count(p.key)) {
      ADD_FAILURE() << "preset " << p.key << " missing";
      continue;
    }
    const json j = run_json(std::string("--preset ") + p.key);
    if (p.theta > 0) {
      EXPECT_EQ(j.at("theta").get<double>(), p.theta);
    }
    EXPECT_EQ(j.at("head_dim").get<long long>(), p.head_dim);
    EXPECT_EQ(j.at("rotary_dim").get<long long>(), p.rotary_dim);
  }
}

TEST_F(DumpTest, OverridesAndRows) {
  // Teaching preset with θ and d overridden: plain RoPE frequencies, and table rows
  // cos/sin(p·θ_i) for p = 0, 1, 2 (float32 tables: 1e-6).
  const json j = run_json("--preset teaching --theta 100 --dim 8 --rows 3");
  ASSERT_TRUE(j.is_object());
  const auto inv = as_doubles(j.at("inv_freq"));
  ASSERT_EQ(inv.size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_LE(rel_diff(inv[i], std::pow(100.0, -2.0 * i / 8)), 1e-12);
  const json& rows = j.at("rows");
  ASSERT_EQ(rows.at("cos").size(), 3u);
  for (int p = 0; p < 3; ++p)
    for (int i = 0; i < 4; ++i) {
      EXPECT_NEAR(rows.at("cos")[p][i].get<double>(), std::cos(p * inv[i]), 1e-6);
      EXPECT_NEAR(rows.at("sin")[p][i].get<double>(), std::sin(p * inv[i]), 1e-6);
    }
  // Linear scaling (position interpolation): every frequency divided by the factor.
  const json lin = run_json("--preset teaching --scaling linear --factor 4");
  const auto lf = as_doubles(lin.at("inv_freq"));
  const auto lo = as_doubles(lin.at("original_inv_freq"));
  ASSERT_EQ(lf.size(), 32u);
  for (int i = 0; i < 32; ++i) EXPECT_LE(rel_diff(lf[i], lo[i] / 4), 1e-12);
}

TEST_F(DumpTest, BadInputExitsNonZeroWithAMessage) {
  struct Bad {
    std::string args;
    const char* names;
  };
  const Bad cases[] = {
      {"--preset no-such-model", "no-such-model"},
      {"--preset teaching --dim 0", "dim"},
      {"--preset teaching --theta 1", "theta"},
      {"--preset teaching --scaling warp-drive", "warp-drive"},
      {"--config " + shell_quote((home.path() / "missing.json").string()), "missing.json"},
      {"--no-such-option", "--no-such-option"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE("dump " + c.args);
    const CommandResult r = run(c.args);
    EXPECT_GE(r.exit_code, 1) << describe(r);
    EXPECT_NE(r.err.find(c.names), std::string::npos) << describe(r);
    EXPECT_EQ(r.out, "") << "errors must not print JSON to stdout";
  }
  // A truncated config.json names the problem's position and never crashes.
  const fs::path truncated = home / "config.json";
  {
    std::ofstream(truncated) << "{\"rope_theta\": 10000, \"hidden_size\": 4096, \"num_attention_heads\": ";
  }
  const CommandResult r = run("--config " + shell_quote(truncated.string()));
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("config.json"), std::string::npos) << describe(r);
}

}  // namespace
