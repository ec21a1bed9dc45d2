// GGUF tensors as weight matrices. The header reader (pe/models/gguf.cpp) has checked names,
// shapes, types and offsets; here a tensor's bytes are also checked against the end of the
// file, which the header reader only reports as a diagnostic (a header-only download is a
// fine thing to inspect, not to read weights from).
#include "pe/weights/gguf_weights.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

#include "pe/base/errors.hpp"
#include "pe/models/gguf.hpp"
#include "pe/weights/weights_error.hpp"

namespace pe {

namespace {

std::string ne_text(const GgufTensorInfo& t) {
  std::string s = "ne [";
  for (std::size_t k = 0; k < t.shape.size(); ++k) s += (k ? ", " : "") + std::to_string(t.shape[k]);
  return s + "]";
}

// llama.cpp's rope type for the architecture (llama_model_rope_type), except bert: listed with
// the NEOX models, its graph (llm_build_bert) adds learned position_embd rows and ropes only
// nomic-bert, jina-bert-v3 and neo-bert, which are architectures of their own.
bool architecture_rotates(const std::string& arch) { return arch != "bert" && gguf_rope_mode(arch) != GgufRopeMode::None; }

}  // namespace

GgufWeights GgufWeights::from_source(std::shared_ptr<const ByteSource> bytes) {
  GgufWeights w;
  try {
    // Through read(): a ranged file (a dropped file read in place) loads the header's ranges only.
    const ByteSource& file = *bytes;
    w.config_ = parse_gguf_config([&file](std::uint64_t offset, void* dst, std::size_t n) { std::memcpy(dst, file.read(offset, n).data(), n); },
                                  file.size(), file.name());
  } catch (const ConfigError& e) {  // GgufError: the header or its configuration
    // An architecture llama.cpp runs without RoPE has no rotary configuration to read, but
    // its position tensors can still be (position_embd, attn_rel_b): keep the header.
    std::optional<GgufFile> file;
    try {
      file = parse_gguf(bytes->bytes(), bytes->name());
    } catch (const ConfigError&) {
    }
    const GgufValue* arch = file ? file->find("general.architecture") : nullptr;
    if (!arch || !arch->is_string() || architecture_rotates(arch->s)) throw WeightsError(bytes->name(), "", e.what());
    w.config_ = GgufModelConfig{};
    w.config_.architecture = arch->s;
    w.config_.rope_mode = GgufRopeMode::None;
    w.config_.file = std::move(*file);
    w.rotary_ = false;
  } catch (const InvalidArgument& e) {  // a value the RoPE configuration refuses
    throw WeightsError(bytes->name(), "", e.what());
  }
  w.names_.reserve(w.config_.file.tensors.size());
  for (const auto& t : w.config_.file.tensors) {
    w.index_.emplace(t.name, w.names_.size());
    w.names_.push_back(t.name);
  }
  w.bytes_ = std::move(bytes);
  return w;
}

GgufWeights GgufWeights::open(const std::filesystem::path& path) { return from_source(map_file(path)); }

const GgufTensorInfo* GgufWeights::find(const std::string& name) const {
  const auto it = index_.find(name);
  return it == index_.end() ? nullptr : &config_.file.tensors[it->second];
}

bool GgufWeights::has_tensor(const std::string& name) const { return find(name) != nullptr; }

std::vector<std::uint64_t> GgufWeights::tensor_shape(const std::string& name) const {
  const GgufTensorInfo* t = find(name);
  if (!t) throw WeightsError(bytes_->name(), name, "no such tensor in this file");
  std::vector<std::uint64_t> out;
  for (const std::int64_t d : t->shape) out.push_back(static_cast<std::uint64_t>(d));
  return out;
}

StoredMatrix GgufWeights::matrix(const std::string& name) const {
  const GgufTensorInfo* t = find(name);
  if (!t) throw WeightsError(bytes_->name(), name, "no such tensor in this file");
  const auto format = stored_format_of_ggml_type(t->ggml_type);
  if (!format) {
    const char* type = ggml_type_name(t->ggml_type);
    throw WeightsError(bytes_->name(), name,
                       "ggml type " + (type ? std::string(type) + " (" + std::to_string(t->ggml_type) + ")" : std::to_string(t->ggml_type)) +
                           " is not decoded by this reader (it decodes " + stored_format_list() + ")");
  }
  if (t->shape.size() < 2 || std::any_of(t->shape.begin() + 2, t->shape.end(), [](std::int64_t d) { return d != 1; }))
    throw WeightsError(bytes_->name(), name, "expected a 2-D weight matrix (ne [in_features, out_features]), found " + ne_text(*t));
  const GgufFile& f = config_.file;
  if (t->offset > UINT64_MAX - f.data_offset)
    throw WeightsError(bytes_->name(), name, "its data offset overflows 64 bits");
  return make_stored_matrix(bytes_, name, *format, f.data_offset + t->offset, t->shape[1], t->shape[0]);
}

}  // namespace pe
