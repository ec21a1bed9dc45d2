// `pe-viz dump --encoding NAME`, run as a child process (PE_VIZ_BINARY): the exact keys of
// each family's JSON, a few values per family computed here from the reference formulas
// (not from core), and bad values: non-zero exit, a message naming the option and its range,
// nothing on stdout.
#include <nlohmann/json.hpp>

#include <cmath>
#include <set>
#include <string>

#include "test_support.hpp"

namespace {

using namespace pe_test;
using nlohmann::json;

class DumpEncodingTest : public ::testing::Test {
 protected:
  TempDir home;
  CommandResult run(const std::string& args) { return run_pe_viz("dump " + args, home.path()); }
  json run_json(const std::string& args) {
    const CommandResult r = run(args);
    EXPECT_EQ(r.exit_code, 0) << "dump " << args << "\n" << describe(r);
    try {
      return json::parse(r.out);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "dump " << args << " printed no valid JSON: " << e.what() << "\n" << describe(r);
      return json::object();
    }
  }
};

std::set<std::string> keys_of(const json& j) {
  std::set<std::string> k;
  for (auto it = j.begin(); it != j.end(); ++it) k.insert(it.key());
  return k;
}

// transformers' _relative_position_bucket in float32 steps (see relative_t5_test.cpp).
long long t5_bucket(long long rp, long long num_buckets, long long max_distance, bool bidirectional) {
  long long out = 0, n = 0;
  if (bidirectional) {
    num_buckets /= 2;
    if (rp > 0) out = num_buckets;
    n = std::llabs(rp);
  } else {
    n = rp < 0 ? -rp : 0;
  }
  const long long max_exact = num_buckets / 2;
  if (n < max_exact) return out + n;
  float v = std::log(static_cast<float>(n) / static_cast<float>(max_exact));
  v = v / static_cast<float>(std::log(static_cast<double>(max_distance) / max_exact)) *
      static_cast<float>(num_buckets - max_exact);
  return out + std::min(max_exact + static_cast<long long>(v), num_buckets - 1);
}

TEST_F(DumpEncodingTest, T5KeysAndBuckets) {
  const json j = run_json("--encoding t5 --length 130");
  EXPECT_EQ(keys_of(j), (std::set<std::string>{"relative_position", "bucket"}));
  const auto rp = j.at("relative_position").get<std::vector<long long>>();
  const auto b = j.at("bucket").get<std::vector<long long>>();
  ASSERT_EQ(rp.size(), 259u);
  ASSERT_EQ(b.size(), 259u);
  for (std::size_t k = 0; k < rp.size(); ++k) {
    EXPECT_EQ(rp[k], static_cast<long long>(k) - 129);  // key − query, ascending
    EXPECT_EQ(b[k], t5_bucket(rp[k], 32, 128, true)) << rp[k];
  }
  // t5-base's bucket starts worked out by hand: 16 → 10, 91 → 15 before the query, +16 → 26.
  EXPECT_EQ(b[129 - 16], 10);
  EXPECT_EQ(b[129 - 15], 9);
  EXPECT_EQ(b[129 - 91], 15);
  EXPECT_EQ(b[129 - 90], 14);
  EXPECT_EQ(b[129 + 16], 26);
  EXPECT_EQ(b[129 + 1], 17);

  const json c = run_json("--encoding t5 --causal --num-buckets 32 --max-distance 128 --length 200");
  const auto cb = c.at("bucket").get<std::vector<long long>>();
  EXPECT_EQ(cb[199 - 113], 31);
  EXPECT_EQ(cb[199 - 112], 30);
  EXPECT_EQ(cb[199 + 5], 0);  // a key after the query
}

TEST_F(DumpEncodingTest, DebertaKeysAndBuckets) {
  const json j = run_json("--encoding deberta --position-buckets 256 --max-relative-positions 512 --length 600");
  EXPECT_EQ(keys_of(j), (std::set<std::string>{"relative_position", "bucket"}));
  const auto rp = j.at("relative_position").get<std::vector<long long>>();
  const auto b = j.at("bucket").get<std::vector<long long>>();
  ASSERT_EQ(rp.size(), 1199u);
  EXPECT_EQ(rp.front(), -599);  // query − key
  for (std::size_t k = 0; k < rp.size(); ++k) {
    const long long a = std::llabs(rp[k]);
    long long expected = rp[k];
    if (a > 128) {
      const double lp = std::ceil(std::log(a / 128.0) / std::log(511.0 / 128.0) * 127.0) + 128.0;
      expected = rp[k] < 0 ? -static_cast<long long>(lp) : static_cast<long long>(lp);
    }
    EXPECT_EQ(b[k], expected) << rp[k];
  }
  EXPECT_EQ(b[599 + 506], 255);
  EXPECT_EQ(b[599 + 505], 254);
  EXPECT_EQ(b[599 + 512], 256);  // before any clamp to the 512 embedding rows
}

TEST_F(DumpEncodingTest, XposZetaAndQScale) {
  const json j = run_json("--encoding xpos --dim 8 --scale-base 512 --length 1025");
  EXPECT_EQ(keys_of(j), (std::set<std::string>{"zeta", "q_scale"}));
  const auto zeta = j.at("zeta").get<std::vector<double>>();
  const auto q = j.at("q_scale").get<std::vector<std::vector<double>>>();
  ASSERT_EQ(zeta.size(), 4u);
  ASSERT_EQ(q.size(), 1025u);
  for (int i = 0; i < 4; ++i) {
    const double z = (2.0 * i + 0.4 * 8) / (1.4 * 8);
    EXPECT_NEAR(zeta[i], z, 1e-15);
    EXPECT_EQ(q[0][i], 1.0);
    EXPECT_NEAR(q[512][i], z, 1e-15);
    EXPECT_NEAR(q[1024][i], z * z, 1e-15);
    EXPECT_NEAR(q[100][i], std::pow(z, 100.0 / 512.0), 1e-15);
  }
  const json d = run_json("--encoding xpos --dim 4 --length 2");  // default scale_base 512
  EXPECT_NEAR(d.at("q_scale")[1][0].get<double>(), std::pow(1.6 / 5.6, 1.0 / 512.0), 1e-15);
}

TEST_F(DumpEncodingTest, KerpleLogAndPower) {
  const json log = run_json("--encoding kerple-log --r1 2 --r2 0.5 --length 5");
  EXPECT_EQ(keys_of(log), (std::set<std::string>{"distance", "bias"}));
  EXPECT_EQ(log.at("distance").get<std::vector<double>>(), (std::vector<double>{0, 1, 2, 3, 4}));
  EXPECT_NEAR(log.at("bias")[4].get<double>(), -2.0 * std::log(3.0), 1e-15);
  EXPECT_EQ(log.at("bias")[0].get<double>(), 0.0);
  const json power = run_json("--encoding kerple-power --r1 0.5 --r2 1.5 --length 5");
  EXPECT_EQ(keys_of(power), (std::set<std::string>{"distance", "bias"}));
  EXPECT_NEAR(power.at("bias")[4].get<double>(), -4.0, 1e-15);  // −0.5·4^1.5
  EXPECT_NEAR(power.at("bias")[2].get<double>(), -0.5 * std::pow(2.0, 1.5), 1e-15);
}

TEST_F(DumpEncodingTest, RopeStaysTheDefault) {
  const CommandResult plain = run("--preset teaching");
  const CommandResult rope = run("--encoding rope --preset teaching");
  EXPECT_EQ(plain.exit_code, 0) << describe(plain);
  EXPECT_EQ(rope.out, plain.out);
  EXPECT_TRUE(json::parse(plain.out).contains("inv_freq"));
}

TEST_F(DumpEncodingTest, TheOtherFamiliesPrintTheirOwnNumbers) {
  const json alibi = run_json("--encoding alibi --heads 8 --length 4");
  EXPECT_EQ(keys_of(alibi), (std::set<std::string>{"slope", "distance", "bias"}));
  for (int h = 0; h < 8; ++h) {
    EXPECT_DOUBLE_EQ(alibi.at("slope")[h].get<double>(), std::pow(2.0, -(h + 1.0)));  // 2^(−8h/8)
    EXPECT_DOUBLE_EQ(alibi.at("bias")[h][3].get<double>(), -3.0 * std::pow(2.0, -(h + 1.0)));
  }
  const json sin = run_json("--encoding sinusoidal --dim 4 --length 3");
  EXPECT_EQ(keys_of(sin), (std::set<std::string>{"frequency", "table"}));
  EXPECT_NEAR(sin.at("table")[2][0].get<double>(), std::sin(2.0), 1e-6);
  EXPECT_NEAR(sin.at("table")[2][3].get<double>(), std::cos(2.0 / 100.0), 1e-6);
  const json learned = run_json("--encoding learned --dim 4 --length 3");
  EXPECT_EQ(keys_of(learned), (std::set<std::string>{"table"}));
  EXPECT_EQ(learned.at("table").size(), 3u);
  const json rk = run_json("--encoding relative-key --max-position-embeddings 8 --length 3");
  EXPECT_EQ(keys_of(rk), (std::set<std::string>{"relative_position", "row"}));
  EXPECT_EQ(rk.at("row").get<std::vector<long long>>(), (std::vector<long long>{5, 6, 7, 8, 9}));  // (q − k) + 7
  const json txl = run_json("--encoding transformer-xl --dim 4 --length 3");
  EXPECT_EQ(keys_of(txl), (std::set<std::string>{"distance", "r"}));
  EXPECT_NEAR(txl.at("r")[2][1].get<double>(), std::sin(0.02), 1e-15);  // sines first, then cosines
  EXPECT_NEAR(txl.at("r")[2][2].get<double>(), std::cos(2.0), 1e-15);
  const json sandwich = run_json("--encoding sandwich --sandwich-dim 4 --length 4");
  EXPECT_EQ(keys_of(sandwich), (std::set<std::string>{"distance", "bias"}));
  EXPECT_NEAR(sandwich.at("bias")[3].get<double>(), std::cos(3.0) + std::cos(0.03) - 2.0, 1e-15);
  const json fire = run_json("--encoding fire --fire-c 1 --fire-threshold 4 --length 11");
  EXPECT_EQ(keys_of(fire), (std::set<std::string>{"distance", "transform"}));
  EXPECT_NEAR(fire.at("transform")[6].get<double>(), std::log(7.0) / std::log(11.0), 1e-15);  // query 10
  EXPECT_EQ(fire.at("transform")[10].get<double>(), 1.0);
  const json nope = run_json("--encoding nope --length 4");
  EXPECT_EQ(keys_of(nope), (std::set<std::string>{"position", "start_token_share"}));
  EXPECT_EQ(nope.at("start_token_share")[3].get<double>(), 0.25);
  const json cope = run_json("--encoding cope --cope-text \"One. Two three! Four\" --cope-gates sentence-ends");
  EXPECT_EQ(keys_of(cope), (std::set<std::string>{"token", "gate", "position"}));
  EXPECT_EQ(cope.at("token").get<std::vector<std::string>>(),
            (std::vector<std::string>{"One", ".", "Two", "three", "!", "Four"}));
  EXPECT_EQ(cope.at("position")[5][0].get<double>(), 2.0);  // "." and "!" between key 0 and query 5
  EXPECT_EQ(cope.at("position")[3][2].get<double>(), 0.0);
}

TEST_F(DumpEncodingTest, BadValuesNameTheOptionAndRange) {
  struct Bad {
    std::string args;
    int exit_code;
    std::vector<std::string> says;
  };
  const Bad cases[] = {
      {"--encoding t5 --max-distance 8", 1, {"--max-distance", "9 ... "}},
      {"--encoding t5 --num-buckets 3", 1, {"--num-buckets", "4 ... 65536"}},
      {"--encoding t5 --causal --max-distance 16", 1, {"--max-distance", "17 ... "}},
      {"--encoding t5 --length 0", 1, {"--length", "1 ... "}},
      {"--encoding deberta --position-buckets 1", 1, {"--position-buckets", "2 ... 65536"}},
      {"--encoding deberta --max-relative-positions 129", 1, {"--max-relative-positions", "130 ... "}},
      {"--encoding xpos --scale-base 0", 1, {"--scale-base", "> 0"}},
      {"--encoding xpos --dim 7", 1, {"--dim", "even"}},
      {"--encoding kerple-log --r1 0", 1, {"--r1", "r1 > 0"}},
      {"--encoding kerple-log --r2 -1", 1, {"--r2", "r2 > 0"}},
      {"--encoding kerple-power --r2 2.5", 1, {"--r2", "0 < r2 <= 2"}},
      {"--encoding kerple-power --r2 nan", 1, {"--r2"}},
      {"--encoding fire --fire-c 0", 1, {"--fire-c"}},
      {"--encoding cope --cope-gates commas", 1, {"--cope-gates", "sentence-ends"}},
      {"--encoding relative-key --max-position-embeddings 4 --length 6", 1, {"--max-position-embeddings", ">= 6"}},
      {"--encoding t5 --length 2000000", 1, {"--length", "numbers per dump"}},
      {"--encoding warp-drive", 2, {"unknown encoding", "kerple-power"}},
      {"--encoding t5 --r1 1", 2, {"--r1", "does not apply to --encoding t5"}},
      {"--encoding kerple-log --preset teaching", 2, {"--preset", "does not apply"}},
      {"--num-buckets 32", 2, {"--num-buckets", "not to rope"}},
      {"--encoding xpos --scale-base abc", 2, {"--scale-base"}},
  };
  for (const Bad& c : cases) {
    SCOPED_TRACE("dump " + c.args);
    const CommandResult r = run(c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << describe(r);
    for (const std::string& s : c.says) EXPECT_NE(r.err.find(s), std::string::npos) << "missing \"" << s << "\"\n" << describe(r);
    EXPECT_EQ(r.out, "") << "errors must not print JSON to stdout";
  }
}

TEST_F(DumpEncodingTest, HelpListsTheEncodingsAndTheirOptions) {
  const CommandResult r = run("--help");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* s : {"--encoding", "kerple-power", "--num-buckets", "--max-distance", "--causal", "--position-buckets",
                        "--max-relative-positions", "--scale-base", "--r1", "--r2", "--fire-c", "--cope-gates"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s;
}

}  // namespace
