// The safetensors header read over HTTP (pe/weights/ranged_weights.hpp): byte 0 → one of four
// small models (weights_test_models.hpp fuzz_model) and whether the file's size is known before
// the first answer; the rest → a safetensors file served in ranges by an in-memory loader. A
// refusal must be a WeightsError naming the file (or the model's configuration); an accepted
// header must come from at most two header requests — bytes 0-100000 first, the rest only when
// the header is longer, never past 8 + N, never for N over 25 MB — and the ranged q/k reading
// must give exactly the numbers of the same bytes read from memory, loading only q/k rows.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

#include "../unit/ranged_test_loader.hpp"
#include "../unit/weights_test_models.hpp"
#include "fuzz_common.hpp"
#include "pe/weights/frequency_usage.hpp"
#include "pe/weights/ranged_reading.hpp"
#include "pe/weights/safetensors.hpp"
#include "pe/weights/safetensors_checkpoint.hpp"
#include "pe/weights/weights_error.hpp"

namespace {

const std::string kName = "fuzz.safetensors";

void check_error(const pe::WeightsError& e, const std::string& config = "") {
  const std::string what = e.what();
  const bool names_file = what.rfind(kName + ": ", 0) == 0;
  const bool names_config = !config.empty() && what.rfind(config + ": ", 0) == 0;
  PE_FUZZ_CHECK(names_file || names_config, "message names neither the file nor the configuration: " + what);
}

// The header's requests: the first is 0-100000 (cut to a known size), a second starts where it
// ended and ends at 8 + N; nothing else before the header is parsed.
void check_header_requests(const std::vector<pe_test::MemoryRangeLoader::Request>& r, std::size_t size, bool size_known) {
  PE_FUZZ_CHECK(!r.empty() && r.size() <= 2, "header requests: " + std::to_string(r.size()));
  PE_FUZZ_CHECK(r[0].range.offset == 0, "first request starts at 0");
  const std::uint64_t first = size_known ? std::min<std::uint64_t>(pe::kSafetensorsFirstRead, size) : pe::kSafetensorsFirstRead;
  PE_FUZZ_CHECK(r[0].range.length == first, "first request is bytes 0-100000: " + std::to_string(r[0].range.length));
  if (r.size() == 2) {
    PE_FUZZ_CHECK(r[1].range.offset == pe::kSafetensorsFirstRead, "second request continues the first");
    PE_FUZZ_CHECK(r[1].range.end() <= 8 + pe::kSafetensorsRemoteMaxHeaderSize, "second request within 25 MB");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const pe::WeightsModel model = pe_test::fuzz_model(data[0] & 3);
  const bool size_known = (data[0] & 4) != 0;
  const std::vector<std::uint8_t> file(data + 1, data + size);
  pe_test::MemoryRangeLoader loader;
  loader.put(kName, file);
  const auto ranged = loader.file(kName, size_known);
  std::optional<pe::SafetensorsCheckpoint> checkpoint;
  try {
    pe::run_ranged(loader, [&] { checkpoint = pe::SafetensorsCheckpoint::single(ranged); }, pe::widen_safetensors_read);
  } catch (const pe::WeightsError& e) {
    check_error(e);
    PE_FUZZ_CHECK(loader.requests.size() <= 2, "a refused header took more than two requests");
    return 0;
  }
  check_header_requests(loader.requests, file.size(), size_known);
  const std::size_t header_requests = loader.requests.size();
  // The same bytes held whole give the same header and the same numbers.
  const auto whole = pe::SafetensorsCheckpoint::single(pe::borrowed_source(file, kName));
  PE_FUZZ_CHECK(whole.tensor_names() == checkpoint->tensor_names(), "the ranged header lists other tensors");
  pe::WeightsReadOptions o;
  o.threads = 1;
  o.batch_bytes = 64;  // many batches: loads and releases interleave
  pe::FrequencyUsage expected;
  try {
    expected = pe::measure_frequency_usage(whole, model, o);
  } catch (const pe::WeightsError& e) {
    check_error(e, model.source);
    return 0;
  }
  // No gap joined: every byte loaded after the header is a q/k row.
  pe::RangedFrequencyReading reading(pe::FrequencyUsageReading(*checkpoint, model, o), loader, 1, 0);
  while (!reading.advance(0)) {
  }
  const pe::FrequencyUsage got = reading.take();
  PE_FUZZ_CHECK(got.layer_index == expected.layer_index, "layers");
  // Bit for bit (a file's NaNs give NaN norms, equal here though never == themselves).
  const auto same = [](const Eigen::ArrayXXd& a, const Eigen::ArrayXXd& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           (a.size() == 0 || std::memcmp(a.data(), b.data(), sizeof(double) * std::size_t(a.size())) == 0);
  };
  for (std::size_t l = 0; l < got.layer_index.size(); ++l)
    PE_FUZZ_CHECK(same(got.q_pair_norms[l], expected.q_pair_norms[l]) && same(got.k_pair_norms[l], expected.k_pair_norms[l]),
                  "ranged norms differ from the whole file's");
  // After the header, only ranges inside the data section, none longer than the q/k bytes.
  std::uint64_t after_header = 0;
  for (std::size_t k = header_requests; k < loader.requests.size(); ++k) after_header += loader.requests[k].range.length;
  PE_FUZZ_CHECK(after_header <= got.bytes_read, "loaded more than the q/k rows");
  return 0;
}
