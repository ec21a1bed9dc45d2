// Single-file and sharded safetensors checkpoints. The index format: huggingface_hub's
// split_torch_state_dict_into_shards docstring and safetensors' bindings/python/convert.py
// (`{"metadata": {"total_size": ...}, "weight_map": {tensor: file}}`); total_size is only
// informational and not checked.
#include "pe/weights/safetensors_checkpoint.hpp"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "pe/base/text.hpp"
#include "pe/weights/weights_error.hpp"

namespace pe {

namespace fs = std::filesystem;

namespace {

using json = nlohmann::json;

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw WeightsError(path.string(), "", "cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A weight_map value must name a file beside the index: no absolute path, no "..".
bool safe_shard_name(const std::string& name) {
  if (name.empty()) return false;
  const fs::path p(name);
  if (p.is_absolute() || name.front() == '/' || name.front() == '\\') return false;
  for (const auto& part : p)
    if (part == "..") return false;
  return true;
}

std::string shape_text(const std::vector<std::uint64_t>& shape) {
  std::string s = "[";
  for (std::size_t k = 0; k < shape.size(); ++k) s += (k ? ", " : "") + std::to_string(shape[k]);
  return s + "]";
}

}  // namespace

SafetensorsCheckpoint SafetensorsCheckpoint::single(std::shared_ptr<const ByteSource> file) {
  SafetensorsCheckpoint c;
  c.description_ = file->name();
  Shard s;
  s.name = file->name();
  s.header = parse_safetensors_header(*file);
  s.bytes = std::move(file);
  for (const auto& t : s.header->tensors) {
    c.shard_index_.emplace(t.name, 0);
    c.names_.push_back(t.name);
  }
  std::sort(c.names_.begin(), c.names_.end());
  c.shards_.push_back(std::move(s));
  return c;
}

SafetensorsCheckpoint SafetensorsCheckpoint::sharded(const std::string& index_json, const std::string& index_name,
                                                     ShardOpener open_shard) {
  json root;
  try {
    root = json::parse(index_json);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for a number past double's range
    throw WeightsError(index_name, "", std::string("not valid JSON: ") + e.what());
  }
  if (!root.is_object()) throw WeightsError(index_name, "", "expected a JSON object, got " + std::string(root.type_name()));
  if (const auto m = root.find("metadata"); m != root.end() && !m->is_object() && !m->is_null())
    throw WeightsError(index_name, "", "metadata", "expected an object, got " + std::string(m->type_name()));
  const auto map = root.find("weight_map");
  if (map == root.end()) throw WeightsError(index_name, "", "weight_map", "missing (a sharded checkpoint's index maps each tensor to its file)");
  if (!map->is_object()) throw WeightsError(index_name, "", "weight_map", "expected an object, got " + std::string(map->type_name()));
  SafetensorsCheckpoint c;
  c.index_name_ = index_name;
  std::map<std::string, std::size_t> shard_of_file;
  for (const auto& [tensor, file] : map->items()) {
    if (!file.is_string())
      throw WeightsError(index_name, tensor, "weight_map." + tensor, "expected a file name, got " + std::string(file.type_name()));
    const std::string name = file.get<std::string>();
    if (!safe_shard_name(name))
      throw WeightsError(index_name, tensor, "weight_map." + tensor,
                         "\"" + name + "\" is not a file name beside the index (empty, absolute or with \"..\")");
    auto [it, added] = shard_of_file.emplace(name, c.shards_.size());
    if (added) c.shards_.push_back(Shard{name, nullptr, std::nullopt});
    c.shard_index_.emplace(tensor, it->second);
    c.names_.push_back(tensor);
  }
  c.description_ = index_name + " (" + std::to_string(c.shards_.size()) + (c.shards_.size() == 1 ? " shard)" : " shards)");
  c.open_shard_ = std::move(open_shard);
  return c;
}

SafetensorsCheckpoint SafetensorsCheckpoint::open(const fs::path& path) {
  std::error_code ec;
  fs::path file = path;
  if (fs::is_directory(path, ec)) {
    if (fs::exists(path / kSafetensorsIndexName, ec)) {
      file = path / kSafetensorsIndexName;
    } else if (fs::exists(path / kSafetensorsSingleName, ec)) {
      file = path / kSafetensorsSingleName;
    } else {
      std::vector<fs::path> indexes, singles;
      for (const auto& entry : fs::directory_iterator(path, ec)) {
        const std::string n = entry.path().filename().string();
        if (ends_with(ascii_lower(n), ".safetensors.index.json")) indexes.push_back(entry.path());
        else if (ends_with(ascii_lower(n), ".safetensors")) singles.push_back(entry.path());
      }
      if (indexes.size() == 1) file = indexes.front();
      else if (indexes.empty() && singles.size() == 1) file = singles.front();
      else if (indexes.empty() && singles.empty())
        throw WeightsError(path.string(), "", std::string("no ") + kSafetensorsIndexName + " and no .safetensors file in this folder");
      else
        throw WeightsError(path.string(), "",
                           std::to_string(indexes.size()) + " index files and " + std::to_string(singles.size()) +
                               " .safetensors files and no " + kSafetensorsIndexName + " or " + kSafetensorsSingleName +
                               ": name the file to read");
    }
  }
  if (ends_with(ascii_lower(file.filename().string()), ".json")) {
    const fs::path dir = file.parent_path();
    SafetensorsCheckpoint c = sharded(read_text(file), file.string(), [dir](const std::string& shard) { return map_file(dir / shard); });
    return c;
  }
  return single(map_file(file));
}

bool SafetensorsCheckpoint::has_tensor(const std::string& name) const { return shard_index_.count(name) != 0; }

const SafetensorsCheckpoint::Shard& SafetensorsCheckpoint::shard_of(const std::string& tensor) const {
  const auto it = shard_index_.find(tensor);
  if (it == shard_index_.end())
    throw WeightsError(index_name_.empty() ? description_ : index_name_, tensor, "no such tensor in this checkpoint");
  const Shard& s = opened(it->second, tensor);
  if (!s.header->find(tensor))
    throw WeightsError(s.bytes->name(), tensor,
                       "the index " + index_name_ + " places this tensor in " + s.name + ", but that file's header does not list it");
  return s;
}

const SafetensorsCheckpoint::Shard& SafetensorsCheckpoint::opened(std::size_t shard, const std::string& tensor) const {
  Shard& s = shards_[shard];
  if (!s.header) {
    std::shared_ptr<const ByteSource> bytes;
    const std::string why = tensor.empty() ? "shard " + s.name : "its shard " + s.name;
    try {
      bytes = open_shard_ ? open_shard_(s.name) : nullptr;
    } catch (const WeightsError& e) {
      throw WeightsError(index_name_, tensor, why + " cannot be read: " + e.what());
    }
    if (!bytes) throw WeightsError(index_name_, tensor, why + " is missing");
    // A ranged shard whose header is not loaded yet throws BytesNotLoaded here; the shard stays
    // unopened, and is opened again once the bytes are in.
    s.header = parse_safetensors_header(*bytes);
    s.bytes = std::move(bytes);
  }
  return s;
}

const SafetensorsHeader& SafetensorsCheckpoint::shard_header(std::size_t shard) const { return *opened(shard, "").header; }

const SafetensorsHeader& SafetensorsCheckpoint::header_of(const std::string& name) const { return *shard_of(name).header; }

std::vector<std::uint64_t> SafetensorsCheckpoint::tensor_shape(const std::string& name) const {
  return header_of(name).find(name)->shape;
}

std::string SafetensorsCheckpoint::file_of(const std::string& name) const { return shard_of(name).bytes->name(); }

StoredMatrix SafetensorsCheckpoint::matrix(const std::string& name) const { return matrix_of(name, false); }

StoredMatrix SafetensorsCheckpoint::table(const std::string& name) const { return matrix_of(name, true); }

StoredMatrix SafetensorsCheckpoint::matrix_of(const std::string& name, bool any_table) const {
  const Shard& s = shard_of(name);
  const SafetensorsTensor& t = *s.header->find(name);
  StoredFormat format;
  switch (t.dtype) {
    case SafetensorsDtype::F32: format = StoredFormat::F32; break;
    case SafetensorsDtype::F16: format = StoredFormat::F16; break;
    case SafetensorsDtype::BF16: format = StoredFormat::BF16; break;
    case SafetensorsDtype::F8_E4M3: format = StoredFormat::F8_E4M3; break;
    case SafetensorsDtype::F8_E5M2: format = StoredFormat::F8_E5M2; break;
    default:
      throw WeightsError(s.bytes->name(), name,
                         std::string("dtype ") + to_string(t.dtype) +
                             " cannot be read as weights: the reader decodes F32, F16 and BF16, and F8_E4M3 and F8_E5M2 with "
                             "their block scales (…_scale_inv, as DeepSeek-V3 stores them); integer-packed quantisations "
                             "(GPTQ, AWQ, bitsandbytes) and the other 8-bit floats are not supported");
  }
  std::vector<std::uint64_t> shape = t.shape;
  if (any_table) {  // ViT's position_embeddings [1, patches + 1, hidden]; a LayerNorm's [hidden]
    while (shape.size() > 2 && shape.front() == 1) shape.erase(shape.begin());
    if (shape.size() == 1) shape.insert(shape.begin(), 1);
  }
  if (shape.size() != 2)
    throw WeightsError(s.bytes->name(), name, "expected a 2-D weight matrix [out_features, in_features], its shape is " + shape_text(t.shape));
  constexpr std::uint64_t kMaxSide = std::uint64_t{1} << 40;
  if (shape[0] > kMaxSide || shape[1] > kMaxSide)
    throw WeightsError(s.bytes->name(), name, "shape " + shape_text(t.shape) + " is too large for a weight matrix");
  StoredMatrix m = make_stored_matrix(s.bytes, name, format, s.header->data_offset() + t.begin, static_cast<long long>(shape[0]),
                                      static_cast<long long>(shape[1]));
  if (format == StoredFormat::F8_E4M3 || format == StoredFormat::F8_E5M2) attach_scales(m);
  return m;
}

std::vector<std::string> SafetensorsCheckpoint::files() const {
  std::vector<std::string> out;
  for (const auto& s : shards_) out.push_back(s.name);
  return out;
}

std::size_t SafetensorsCheckpoint::shards_opened() const {
  return static_cast<std::size_t>(std::count_if(shards_.begin(), shards_.end(), [](const Shard& s) { return s.header.has_value(); }));
}

}  // namespace pe
