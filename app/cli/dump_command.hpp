#pragma once
// `pe-viz dump`: a configuration's RoPE frequencies as JSON, no window needed.
//
//   pe-viz dump --preset llama-3.1-8b
//   pe-viz dump --config path/to/config.json --length 65536 --rows 4
//   pe-viz dump --preset teaching --scaling yarn --factor 4 --original-max-position-embeddings 64
//   pe-viz dump --list-presets
//
// Exit codes: 0 success, 1 bad input (unreadable or invalid config, invalid parameter
// values), 2 bad command line. Errors go to stderr, JSON to stdout.
#include <iosfwd>
#include <string>

#include "pe/scaling.hpp"

// argv[0] is "dump". Writes to std::cout / std::cerr.
int run_dump_command(int argc, char** argv);

// Same, with the streams given (for tests).
int run_dump_command(int argc, char** argv, std::ostream& out, std::ostream& err);

namespace app {

// The JSON document `dump` prints for `config` at sequence length `length` (the current
// length dynamic NTK and LongRoPE depend on), with the first `rows` rows of the cos/sin
// tables when rows > 0. Throws pe::InvalidArgument on an invalid config.
std::string dump_json(const pe::RopeConfig& config, long long length, long long rows = 0);

// `--list-presets` output: [{"key", "title", "source"}, ...].
std::string presets_json();

}  // namespace app
