#pragma once
// `pe-viz dump --encoding NAME`: every positional encoding family's own numbers as JSON,
// computed by core (pe/relative, pe/encodings). `--encoding rope`, the default, is the RoPE
// dump of dump_command.cpp, unchanged.
//
//   pe-viz dump --encoding t5 [--num-buckets 32] [--max-distance 128] [--causal] --length L
//       relative_position (−(L−1) … L−1, key − query), bucket
//   pe-viz dump --encoding deberta [--position-buckets 256] [--max-relative-positions 512]
//              [--max-position-embeddings 512] --length L
//       relative_position (−(L−1) … L−1, query − key), bucket (make_log_bucket_position's
//       value, before any row offset)
//   pe-viz dump --encoding xpos --dim D [--scale-base 512] --length L
//       zeta [pair], q_scale [position][pair] = zeta^(position/scale_base), positions 0 … L−1
//   pe-viz dump --encoding kerple-log|kerple-power --r1 R1 --r2 R2 --length L
//       distance (0 … L−1), bias
//   pe-viz dump --encoding alibi [--heads 8] --length L          slope [head], distance, bias [head][distance]
//   pe-viz dump --encoding sinusoidal --dim D [--theta] --length L frequency [pair], table [position][column]
//   pe-viz dump --encoding learned --dim D [--seed] --length L    table [position][column] (seeded N(0, 0.02))
//   pe-viz dump --encoding relative-key [--max-position-embeddings 512] --length L
//       relative_position (query − key), row (BERT's distance_embedding row)
//   pe-viz dump --encoding transformer-xl --dim D [--clamp-len C] --length L   distance, r [distance][dim]
//   pe-viz dump --encoding sandwich [--sandwich-dim 128] --length L           distance, bias
//   pe-viz dump --encoding fire [--fire-c 1] [--fire-threshold 512] --length L
//       distance, transform (query at position L − 1, key `distance` before it)
//   pe-viz dump --encoding nope --length L                        position, start_token_share
//   pe-viz dump --encoding cope --cope-text TEXT [--cope-gates sentence-ends] [--cope-npos-max 64]
//       token, gate [token], position [query][key]
//
// Option names are the parameters' names everywhere (core field num_buckets = session key =
// CLI --num-buckets). An option another encoding owns is a command-line error (exit 2), as is
// an unknown NAME; a value outside its range exits 1 with a message naming the option and
// the range.
#include <iosfwd>
#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace app {

struct EncodingDumpOptions {
  std::optional<std::string> encoding;
  std::optional<long long> num_buckets, max_distance, position_buckets, max_relative_positions,
      max_position_embeddings, heads, seed, clamp_len, sandwich_dim, cope_npos_max;
  bool causal = false;
  std::optional<double> scale_base, r1, r2, fire_c, fire_threshold;
  std::optional<std::string> cope_text, cope_gates;
};

// Adds --encoding and the encoding options above to dump's CLI (dump's own --dim, --length,
// --theta serve the encodings too).
void add_encoding_dump_options(CLI::App& dump, EncodingDumpOptions& options);

// After dump's CLI parsed: std::nullopt when this is RoPE's dump (no --encoding, or
// --encoding rope) and no encoding option was given, so dump_command carries on; otherwise
// prints the encoding's JSON to `out` (or an error to `err`) and returns the exit code.
std::optional<int> run_encoding_dump(const CLI::App& dump, const EncodingDumpOptions& options, std::ostream& out,
                                     std::ostream& err);

// The names --encoding accepts, in the order --help lists them.
const char* encoding_names();

}  // namespace app
