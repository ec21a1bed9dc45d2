#include "cli/dump_encoding.hpp"
#include "cli/json_arrays.hpp"

#include <CLI/CLI.hpp>
#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "pe/base/errors.hpp"
#include "pe/encodings/alibi.hpp"
#include "pe/encodings/learned.hpp"
#include "pe/encodings/sinusoidal.hpp"
#include "pe/relative/cope.hpp"
#include "pe/relative/deberta.hpp"
#include "pe/relative/fire.hpp"
#include "pe/relative/kerple.hpp"
#include "pe/relative/nope.hpp"
#include "pe/relative/relative_keys.hpp"
#include "pe/relative/sandwich.hpp"
#include "pe/relative/t5_buckets.hpp"
#include "pe/relative/transformer_xl.hpp"
#include "pe/relative/xpos.hpp"

namespace app {
namespace {

using json = nlohmann::json;

// JSON text costs ~20 bytes a number: cap what one dump prints (as dump --rows does).
constexpr long long kMaxDumpNumbers = 4'000'000;
constexpr long long kDefaultLength = 32;
constexpr long long kDefaultDim = 64;
constexpr const char* kDefaultCopeText = "The cat sat. The dog ran. It rained!";

// What an encoding's dump reads: its options, and dump's shared --dim, --length, --theta.
struct Inputs {
  const EncodingDumpOptions& o;
  long long length = kDefaultLength;
  long long dim = kDefaultDim;
  double theta = 10000.0;
};

struct Encoding {
  const char* name;
  std::vector<const char*> options;  // the options it reads (besides --encoding)
  std::function<json(const Inputs&)> dump;
  long long numbers_per_position;  // for the size cap; 0: checked by the dump itself
};

void cap_numbers(const char* encoding, long long length, long long per_position) {
  if (per_position > 0 && length > kMaxDumpNumbers / per_position)
    throw pe::InvalidArgument("length", pe::format_integer(length),
                              std::string("--encoding ") + encoding + " prints at most " +
                                  pe::format_integer(kMaxDumpNumbers / per_position) + " positions here (" +
                                  pe::format_integer(kMaxDumpNumbers) + " numbers per dump)");
}

json integers(const pe::BucketArray& a) {
  json out = json::array();
  for (Eigen::Index i = 0; i < a.size(); ++i) out.push_back(a[i]);
  return out;
}

json table_rows(const pe::TableF& t) {
  json out = json::array();
  for (Eigen::Index r = 0; r < t.rows(); ++r) {
    json row = json::array();
    for (Eigen::Index c = 0; c < t.cols(); ++c) row.push_back(t(r, c));
    out.push_back(std::move(row));
  }
  return out;
}

Eigen::ArrayXd distances(long long length) { return Eigen::ArrayXd::LinSpaced(length, 0.0, static_cast<double>(length - 1)); }

json dump_t5(const Inputs& in) {
  const pe::T5BucketParams p{in.o.num_buckets.value_or(32), in.o.max_distance.value_or(128), in.o.causal};
  const pe::T5BucketRow row = pe::t5_bucket_row(in.length, p);
  return {{"relative_position", integers(row.relative_position)}, {"bucket", integers(row.bucket)}};
}

json dump_deberta(const Inputs& in) {
  const pe::DebertaPositionParams p{in.o.position_buckets.value_or(256), in.o.max_relative_positions.value_or(512),
                                    in.o.max_position_embeddings.value_or(512)};
  const pe::DebertaBucketRow row = pe::deberta_bucket_row(in.length, p);
  return {{"relative_position", integers(row.relative_position)}, {"bucket", integers(row.bucket)}};
}

json dump_xpos(const Inputs& in) {
  const double base = in.o.scale_base.value_or(pe::kXposDefaultScaleBase);
  pe::require_xpos_params(in.dim, base);
  cap_numbers("xpos", in.length, in.dim / 2);
  return {{"zeta", array_of(pe::xpos_zeta(in.dim))}, {"q_scale", matrix_of(pe::xpos_q_scales(in.dim, in.length, base))}};
}

json dump_kerple(const Inputs& in, bool power) {
  const pe::KerpleParams p{in.o.r1.value_or(1.0), in.o.r2.value_or(1.0)};
  const Eigen::ArrayXd d = distances(in.length);
  return {{"distance", array_of(d)}, {"bias", array_of(power ? pe::kerple_power_curve(d, p) : pe::kerple_log_curve(d, p))}};
}

json dump_alibi(const Inputs& in) {
  const Eigen::ArrayXd slopes = pe::alibi_slopes(in.o.heads.value_or(8));
  cap_numbers("alibi", in.length, slopes.size() + 1);
  const Eigen::ArrayXd d = distances(in.length);
  json bias = json::array();
  for (Eigen::Index h = 0; h < slopes.size(); ++h) bias.push_back(array_of(-slopes[h] * d + 0.0));  // −slope·(m − n); + 0.0 prints distance 0 as 0, not -0
  return {{"slope", array_of(slopes)}, {"distance", array_of(d)}, {"bias", std::move(bias)}};
}

json dump_sinusoidal(const Inputs& in) {
  pe::require_dim("dim", in.dim);
  cap_numbers("sinusoidal", in.length, in.dim);
  return {{"frequency", array_of(pe::sinusoidal_frequencies(in.dim, in.theta))},
          {"table", table_rows(pe::sinusoidal_table(in.length, in.dim, in.theta))}};
}

json dump_learned(const Inputs& in) {
  pe::require_dim("dim", in.dim);
  cap_numbers("learned", in.length, in.dim);
  const long long seed = in.o.seed.value_or(0);
  pe::require_at_least("seed", seed, 0);
  const pe::LearnedEmbedding table(in.length, in.dim, 0.02, static_cast<std::uint64_t>(seed));
  return {{"table", table_rows(table.table())}};
}

json dump_relative_key(const Inputs& in) {
  const long long p = in.o.max_position_embeddings.value_or(512);
  (void)pe::bert_distance_row(in.length - 1, 0, p);  // refuses a length past the table
  pe::BucketArray rel(2 * in.length - 1), row(2 * in.length - 1);
  for (long long k = 0; k < 2 * in.length - 1; ++k) {
    rel[k] = k - (in.length - 1);  // query − key
    row[k] = rel[k] + p - 1;
  }
  return {{"relative_position", integers(rel)}, {"row", integers(row)}};
}

json dump_transformer_xl(const Inputs& in) {
  pe::require_even_dim("dim", in.dim, "Transformer-XL's sinusoid");
  cap_numbers("transformer-xl", in.length, in.dim);
  const long long clamp = in.o.clamp_len.value_or(0);
  json r = json::array();
  for (long long n = 0; n < in.length; ++n) r.push_back(array_of(pe::transformer_xl_r(n, in.dim, clamp)));
  return {{"distance", array_of(distances(in.length))}, {"r", std::move(r)}};
}

json dump_sandwich(const Inputs& in) {
  const Eigen::ArrayXd d = distances(in.length);
  return {{"distance", array_of(d)},
          {"bias", array_of(pe::sandwich_bias_curve(d, in.o.sandwich_dim.value_or(pe::kSandwichDefaultDim)))}};
}

json dump_fire(const Inputs& in) {
  const pe::FireParams p{in.o.fire_c.value_or(1.0), in.o.fire_threshold.value_or(512.0)};
  const Eigen::ArrayXd d = distances(in.length);
  return {{"distance", array_of(d)}, {"transform", array_of(pe::fire_transform_curve(in.length - 1, d, p))}};
}

json dump_nope(const Inputs& in) {
  return {{"position", array_of(distances(in.length))}, {"start_token_share", array_of(pe::nope_position_signal(in.length))}};
}

json dump_cope(const Inputs& in) {
  const pe::CopeGatePattern pattern = pe::cope_gate_pattern_from_string(in.o.cope_gates.value_or("sentence-ends"));
  const std::string text = in.o.cope_text.value_or(kDefaultCopeText);
  const long long tokens = static_cast<long long>(pe::cope_tokens(text).size());
  if (tokens * tokens > kMaxDumpNumbers)
    throw pe::InvalidArgument("cope_text", pe::format_integer(tokens) + " tokens",
                              "at most 2000 tokens per dump (their positions are a tokens x tokens table)");
  const pe::CopeCounts c = pe::cope_count(text, pattern, in.o.cope_npos_max.value_or(64));
  return {{"token", c.tokens}, {"gate", array_of(c.gates)}, {"position", matrix_of(c.positions)}};
}

const std::vector<Encoding>& encodings() {
  static const std::vector<Encoding> list = {
      {"sinusoidal", {"--dim", "--theta", "--length"}, dump_sinusoidal, 0},
      {"learned", {"--dim", "--seed", "--length"}, dump_learned, 0},
      {"alibi", {"--heads", "--length"}, dump_alibi, 0},
      {"t5", {"--num-buckets", "--max-distance", "--causal", "--length"}, dump_t5, 4},
      {"deberta", {"--position-buckets", "--max-relative-positions", "--max-position-embeddings", "--length"},
       dump_deberta, 4},
      {"relative-key", {"--max-position-embeddings", "--length"}, dump_relative_key, 4},
      {"transformer-xl", {"--dim", "--clamp-len", "--length"}, dump_transformer_xl, 0},
      {"xpos", {"--dim", "--scale-base", "--length"}, dump_xpos, 0},
      {"kerple-log", {"--r1", "--r2", "--length"}, [](const Inputs& in) { return dump_kerple(in, false); }, 2},
      {"kerple-power", {"--r1", "--r2", "--length"}, [](const Inputs& in) { return dump_kerple(in, true); }, 2},
      {"sandwich", {"--sandwich-dim", "--length"}, dump_sandwich, 2},
      {"fire", {"--fire-c", "--fire-threshold", "--length"}, dump_fire, 2},
      {"nope", {"--length"}, dump_nope, 2},
      {"cope", {"--cope-text", "--cope-gates", "--cope-npos-max"}, dump_cope, 0},
  };
  return list;
}

// Options that belong to the encodings, not to RoPE's dump.
const std::vector<const char*>& encoding_only_options() {
  static const std::vector<const char*> list = {
      "--num-buckets", "--max-distance", "--causal", "--position-buckets", "--max-relative-positions",
      "--max-position-embeddings", "--heads", "--seed", "--clamp-len", "--sandwich-dim", "--scale-base", "--r1", "--r2",
      "--fire-c", "--fire-threshold", "--cope-text", "--cope-gates", "--cope-npos-max"};
  return list;
}

std::string joined(const std::vector<const char*>& words) {
  std::string s;
  for (const char* w : words) s += (s.empty() ? "" : ", ") + std::string(w);
  return s;
}

// The long name of every option given on the command line (except --encoding).
std::vector<std::string> given_options(const CLI::App& dump) {
  std::vector<std::string> given;
  for (const CLI::Option* opt : dump.get_options()) {
    if (opt->count() == 0 || opt->check_name("--encoding")) continue;
    given.push_back(opt->get_name());
  }
  return given;
}

// Core names the parameter (num_buckets); the command line calls it --num-buckets.
std::string option_for(const std::string& parameter) {
  if (parameter == "num_heads") return "--heads";  // alibi_slopes' name for it
  std::string name = "--" + parameter;
  for (char& c : name)
    if (c == '_') c = '-';
  for (const Encoding& e : encodings())
    for (const char* o : e.options)
      if (name == o) return name;
  return parameter;
}

template <class T>
std::optional<T> shared_value(const CLI::App& dump, const char* name) {
  const CLI::Option* opt = dump.get_option_no_throw(name);
  if (opt == nullptr || opt->count() == 0) return std::nullopt;
  return opt->as<T>();
}

}  // namespace

const char* encoding_names() {
  return "rope (default), sinusoidal, learned, alibi, t5, deberta, relative-key, transformer-xl, xpos, kerple-log, "
         "kerple-power, sandwich, fire, nope, cope";
}

void add_encoding_dump_options(CLI::App& dump, EncodingDumpOptions& o) {
  dump.add_option("--encoding", o.encoding,
                  std::string("Print this encoding's numbers as JSON instead of RoPE's: ") + encoding_names() +
                      ". Keys: t5 and deberta relative_position, bucket; xpos zeta, q_scale; kerple-* distance, bias; "
                      "alibi slope, distance, bias; sinusoidal frequency, table; learned table; relative-key "
                      "relative_position, row; transformer-xl distance, r; sandwich distance, bias; fire distance, "
                      "transform; nope position, start_token_share; cope token, gate, position (default --length 32)");
  dump.add_option("--num-buckets", o.num_buckets, "t5: relative_attention_num_buckets (default 32)");
  dump.add_option("--max-distance", o.max_distance, "t5: relative_attention_max_distance (default 128)");
  dump.add_flag("--causal", o.causal, "t5: decoder buckets (every key after the query in bucket 0)");
  dump.add_option("--position-buckets", o.position_buckets, "deberta: position_buckets (default 256)");
  dump.add_option("--max-relative-positions", o.max_relative_positions,
                  "deberta: max_relative_positions (default 512; < 1 means --max-position-embeddings)");
  dump.add_option("--max-position-embeddings", o.max_position_embeddings,
                  "deberta, relative-key: max_position_embeddings (default 512)");
  dump.add_option("--heads", o.heads, "alibi: number of heads (default 8)");
  dump.add_option("--seed", o.seed, "learned: seed of the N(0, 0.02) table (default 0)");
  dump.add_option("--clamp-len", o.clamp_len, "transformer-xl: clamp_len, 0 for none (default 0)");
  dump.add_option("--sandwich-dim", o.sandwich_dim, "sandwich: dimension of the sinusoids (default 128)");
  dump.add_option("--scale-base", o.scale_base, "xpos: scale_base (default 512)");
  dump.add_option("--r1", o.r1, "kerple-log, kerple-power: r1 > 0 (default 1)");
  dump.add_option("--r2", o.r2, "kerple-log: r2 > 0; kerple-power: 0 < r2 <= 2 (default 1)");
  dump.add_option("--fire-c", o.fire_c, "fire: c > 0 of log(c*x + 1) (default 1)");
  dump.add_option("--fire-threshold", o.fire_threshold, "fire: the threshold L > 0 of max(L, i) (default 512)");
  dump.add_option("--cope-text", o.cope_text, "cope: the sentence whose tokens are counted");
  dump.add_option("--cope-gates", o.cope_gates, "cope: which tokens count: every-token, sentence-ends (default), words, punctuation");
  dump.add_option("--cope-npos-max", o.cope_npos_max, "cope: positions are clamped to npos_max - 1 (default 64)");
}

std::optional<int> run_encoding_dump(const CLI::App& dump, const EncodingDumpOptions& o, std::ostream& out,
                                     std::ostream& err) {
  const std::vector<std::string> given = given_options(dump);
  const std::string name = o.encoding.value_or("rope");
  if (name == "rope") {
    for (const std::string& g : given) {
      for (const char* only : encoding_only_options()) {
        if (g != only) continue;
        err << "pe-viz dump: " << g << " applies to another --encoding (" << encoding_names() << "), not to rope\n";
        return 2;
      }
    }
    return std::nullopt;
  }
  const Encoding* encoding = nullptr;
  for (const Encoding& e : encodings())
    if (name == e.name) encoding = &e;
  if (encoding == nullptr) {
    err << "pe-viz dump: --encoding: unknown encoding \"" << name << "\"; expected one of " << encoding_names() << "\n";
    return 2;
  }
  for (const std::string& g : given) {
    bool allowed = false;
    for (const char* a : encoding->options) allowed = allowed || g == a;
    if (!allowed) {
      err << "pe-viz dump: " << g << " does not apply to --encoding " << name << " (its options: "
          << joined(encoding->options) << ")\n";
      return 2;
    }
  }
  try {
    Inputs in{o};
    in.length = shared_value<long long>(dump, "--length").value_or(kDefaultLength);
    in.dim = shared_value<long long>(dump, "--dim").value_or(kDefaultDim);
    in.theta = shared_value<double>(dump, "--theta").value_or(10000.0);
    pe::require_length("length", in.length);
    pe::require_theta("theta", in.theta);
    cap_numbers(encoding->name, in.length, encoding->numbers_per_position);
    const json j = encoding->dump(in);
    out << j.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
    return 0;
  } catch (const pe::InvalidArgument& e) {
    err << "pe-viz dump: " << option_for(e.parameter()) << " = " << e.value() << ": " << e.allowed() << "\n";
  } catch (const std::exception& e) {
    err << "pe-viz dump: --encoding " << name << ": " << e.what() << "\n";
  }
  return 1;
}

}  // namespace app
