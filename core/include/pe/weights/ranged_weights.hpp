#pragma once
// A checkpoint made of ranged files (a model on the Hub, files dropped on a browser page),
// opened in steps: only the headers are loaded — each safetensors shard's length and JSON
// (bytes 0-100000, then the rest when longer; over 25 MB refused), a GGUF file's metadata and
// tensor infos — every shard at once, and nothing of the tensors' data. Then the q/k measure
// reads it through RangedFrequencyReading.
//
//   RangedWeightsOpening o = RangedWeightsOpening::sharded(config, "config.json", index, "…index.json", shard_of);
//   while (!o.advance(loader, 100)) {}
//   OpenedWeights w = o.take();
#include "pe/weights/module_guard.hpp"
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "pe/weights/open_weights.hpp"
#include "pe/weights/ranged_file.hpp"
#include "pe/weights/ranged_reading.hpp"

namespace pe {

class RangedWeightsOpening {
 public:
  // A GGUF file (its metadata gives the model).
  static RangedWeightsOpening gguf(std::shared_ptr<const RangedFile> file);
  // One safetensors file and the config.json text (`config_name` names it in messages).
  static RangedWeightsOpening safetensors(std::string config_json, std::string config_name, std::shared_ptr<const RangedFile> file);
  // Shards listed by an index (its text); `shard` gives the ranged file of a weight_map name
  // (nullptr: missing). The index is checked now (WeightsError). `all_headers`: every shard's
  // header is loaded now, at once (what reading every layer needs); false: none — a reading of
  // a few layers loads the headers of their shards only, as its planning asks for them
  // (FrequencyUsageReading made inside a RangedTasks task).
  using ShardFile = std::function<std::shared_ptr<const RangedFile>(const std::string& shard)>;
  static RangedWeightsOpening sharded(std::string config_json, std::string config_name, const std::string& index_json,
                                      const std::string& index_name, ShardFile shard, bool all_headers = true);

  // Loads the headers; true when they are all read (then take()). Throws WeightsError (a bad
  // header, a missing shard, a config that does not fit) and the loader's errors.
  bool advance(RangeLoader& loader, int wait_ms);
  OpenedWeights take();

 private:
  RangedWeightsOpening() = default;
  std::function<OpenedWeights()> finish_;
  std::shared_ptr<RangedTasks> tasks_;
};

}  // namespace pe
