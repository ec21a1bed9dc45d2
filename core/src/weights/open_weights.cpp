#include "pe/weights/open_weights.hpp"

#include "pe/base/text.hpp"
#include "pe/models/config.hpp"
#include "pe/models/config_diagnostics.hpp"
#include "pe/models/gguf_conversion.hpp"
#include "pe/weights/gguf_weights.hpp"
#include "pe/weights/weights_error.hpp"

namespace pe {

namespace fs = std::filesystem;

namespace {

// config.json's family first: a model that does not rotate has no q/k pairs to measure (its
// `model` stays empty) but position tensors to read. False for a rotary model and for a
// config the reader refuses (hf_weights_model then says why, as before).
bool opened_without_rotation(OpenedWeights& out, const std::string& config_json, const std::string& config_name) {
  try {
    const InspectedConfig c = inspect_hf_config(config_json, config_name);
    out.encoding = c.loaded.encoding;
    if (!c.valid || out.encoding.rotates()) return false;
    out.position_spec = position_tables_spec(out.encoding, config_json, config_name);
    return true;
  } catch (const ConfigError& e) {
    throw WeightsError(config_name, "", e.what());
  }
}

}  // namespace

OpenedWeights open_gguf_weights(std::shared_ptr<const ByteSource> gguf) {
  auto w = std::make_shared<GgufWeights>(GgufWeights::from_source(std::move(gguf)));
  OpenedWeights out;
  out.encoding = gguf_position_encoding(w->file());
  if (w->rotary()) out.model = gguf_weights_model(w->config());
  else out.position_spec = gguf_position_tables_spec(w->file());
  out.tensors = std::move(w);
  return out;
}

OpenedWeights open_hf_weights(SafetensorsCheckpoint checkpoint, const std::string& config_json, const std::string& config_name) {
  OpenedWeights out;
  if (opened_without_rotation(out, config_json, config_name)) {
    out.tensors = std::make_shared<SafetensorsCheckpoint>(std::move(checkpoint));
    return out;
  }
  try {
    InspectedConfig c = inspect_hf_config(config_json, config_name);
    if (c.source.empty()) c.source = config_name;
    out.model = hf_weights_model(c, hf_checkpoint_layout(config_json));
    out.model.fp8 = fp8_quantization_of(config_json, config_name);
  } catch (const WeightsError&) {
    throw;
  } catch (const ConfigError& e) {
    throw WeightsError(config_name, "", e.what());
  }
  checkpoint.set_fp8_quantization(out.model.fp8);
  out.tensors = std::make_shared<SafetensorsCheckpoint>(std::move(checkpoint));
  return out;
}

OpenedWeights open_weights(const fs::path& path) {
  if (lower_extension(path) == ".gguf") return open_gguf_weights(map_file(path));
  std::error_code ec;
  const fs::path folder = fs::is_directory(path, ec) ? path : path.parent_path();
  const fs::path config = (folder.empty() ? fs::path(".") : folder) / "config.json";
  if (!fs::exists(config, ec))
    throw WeightsError(path.string(), "", "no config.json beside the weights (" + config.string() +
                                              "): the heads and widths that cut W_q and W_k come from it");
  SafetensorsCheckpoint checkpoint = SafetensorsCheckpoint::open(path);
  OpenedWeights out;
  std::string text;
  try {
    text = read_config_text(config);
  } catch (const ConfigError& e) {
    throw WeightsError(config.string(), "", e.what());
  }
  if (opened_without_rotation(out, text, config.string())) {
    out.config_path = config;
    out.tensors = std::make_shared<SafetensorsCheckpoint>(std::move(checkpoint));
    return out;
  }
  out.model = hf_weights_model_file(config);
  out.config_path = config;
  checkpoint.set_fp8_quantization(out.model.fp8);
  out.tensors = std::make_shared<SafetensorsCheckpoint>(std::move(checkpoint));
  return out;
}

}  // namespace pe
