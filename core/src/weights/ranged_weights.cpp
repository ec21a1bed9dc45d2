#include "pe/weights/ranged_weights.hpp"

#include <map>

#include "pe/weights/gguf_weights.hpp"
#include "pe/weights/safetensors_checkpoint.hpp"

namespace pe {

RangedWeightsOpening RangedWeightsOpening::gguf(std::shared_ptr<const RangedFile> file) {
  RangedWeightsOpening o;
  o.tasks_ = std::make_shared<RangedTasks>();
  auto opened = std::make_shared<std::optional<OpenedWeights>>();
  o.tasks_->add([file, opened] { *opened = open_gguf_weights(file); }, widen_gguf_read);
  o.finish_ = [opened] { return std::move(**opened); };
  return o;
}

RangedWeightsOpening RangedWeightsOpening::safetensors(std::string config_json, std::string config_name,
                                                       std::shared_ptr<const RangedFile> file) {
  RangedWeightsOpening o;
  o.tasks_ = std::make_shared<RangedTasks>();
  auto checkpoint = std::make_shared<std::optional<SafetensorsCheckpoint>>();
  o.tasks_->add([file, checkpoint] { *checkpoint = SafetensorsCheckpoint::single(file); }, widen_safetensors_read);
  o.finish_ = [checkpoint, config_json = std::move(config_json), config_name = std::move(config_name)] {
    return open_hf_weights(std::move(**checkpoint), config_json, config_name);
  };
  return o;
}

RangedWeightsOpening RangedWeightsOpening::sharded(std::string config_json, std::string config_name, const std::string& index_json,
                                                   const std::string& index_name, ShardFile shard, bool all_headers) {
  RangedWeightsOpening o;
  o.tasks_ = std::make_shared<RangedTasks>();
  // A shard is asked for again each time its header is parsed again: the same file each time
  // (what it loaded stays).
  auto files = std::make_shared<std::map<std::string, std::shared_ptr<const RangedFile>>>();
  auto checkpoint = std::make_shared<SafetensorsCheckpoint>(
      SafetensorsCheckpoint::sharded(index_json, index_name, [shard, files](const std::string& name) -> std::shared_ptr<const ByteSource> {
        auto [it, added] = files->emplace(name, nullptr);
        if (added) it->second = shard(name);
        return it->second;
      }));
  // Every shard's header at once: the loads run in parallel, and q/k tensors lie in nearly
  // every shard of a checkpoint split by size.
  for (std::size_t k = 0; all_headers && k < checkpoint->files().size(); ++k)
    o.tasks_->add([checkpoint, k] { checkpoint->shard_header(k); }, widen_safetensors_read);
  o.finish_ = [checkpoint, config_json = std::move(config_json), config_name = std::move(config_name)] {
    return open_hf_weights(std::move(*checkpoint), config_json, config_name);
  };
  return o;
}

bool RangedWeightsOpening::advance(RangeLoader& loader, int wait_ms) { return tasks_->advance(loader, wait_ms); }

OpenedWeights RangedWeightsOpening::take() { return finish_(); }

}  // namespace pe
