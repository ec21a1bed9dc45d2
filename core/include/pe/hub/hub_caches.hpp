#pragma once
// The two caches of what came from the Hub, both written so that an interrupted write leaves
// nothing half-written (a temporary file renamed into place last):
//
//   Whole small files (config.json, model.safetensors.index.json) in the Hugging Face cache's
//   own layout, as huggingface_hub writes it (file_download.py: _create_symlink,
//   _cache_commit_hash_for_specific_revision, the .no_exist markers), so transformers and
//   pe-viz find them offline later:
//     models--ORG--NAME/blobs/<etag>                        the bytes
//     models--ORG--NAME/snapshots/<commit>/<path>           a relative symlink to the blob
//     models--ORG--NAME/refs/<revision>                     the commit (no newline)
//     models--ORG--NAME/.no_exist/<commit>/<path>           an empty file: the Hub said 404
//
//   Ranges of large files (safetensors headers, q/k rows) in pe-viz's own cache, by commit,
//   file and range: <root>/models--ORG--NAME/<commit>/<path>/<first>-<end> (end exclusive),
//   and the file's size in .../<path>/size. A range is served from the cached pieces that
//   cover it, so a run of one layer and then of all reuses the layer's bytes.
#include "pe/hub/module_guard.hpp"
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "pe/models/hf_cache.hpp"
#include "pe/weights/ranged_file.hpp"

namespace pe {

// Writes `bytes` to `path` through a temporary file in the same folder, renamed into place
// (so a reader or an interruption never sees part of it). Throws HubError(Cache).
void write_file_atomically(const std::filesystem::path& path, std::span<const std::uint8_t> bytes);

// ---- the Hugging Face cache
// The commit `revision` names in the cache: refs/<revision>, or the revision itself when it
// is a snapshot's name. nullopt when neither.
std::optional<std::string> hf_cached_commit(const HfCacheDir& cache, const std::string& repo_id, const std::string& revision);
// snapshots/<commit>/<path> when it is there and readable (a link to a present blob).
std::optional<std::filesystem::path> hf_cached_file(const HfCacheDir& cache, const std::string& repo_id, const std::string& commit,
                                                    const std::string& path);
// Whether .no_exist/<commit>/<path> says the Hub has no such file.
bool hf_cached_as_missing(const HfCacheDir& cache, const std::string& repo_id, const std::string& commit, const std::string& path);
// Stores a downloaded file: the blob (named by its ETag), the snapshot's link, then the ref
// (revision → commit; none when the revision is the commit). Throws HubError(Cache).
std::filesystem::path hf_cache_store(const HfCacheDir& cache, const std::string& repo_id, const std::string& revision,
                                     const std::string& commit, const std::string& path, const std::string& etag,
                                     std::span<const std::uint8_t> bytes);
// Marks a file the Hub answered EntryNotFound for (and the ref, as huggingface_hub does).
void hf_cache_store_missing(const HfCacheDir& cache, const std::string& repo_id, const std::string& revision,
                            const std::string& commit, const std::string& path);

// ---- pe-viz's range cache
class RangeCache {
 public:
  // `root` empty: a cache that holds nothing and keeps nothing.
  explicit RangeCache(std::filesystem::path root = {});
  bool enabled() const { return !root_.empty(); }

  std::optional<std::uint64_t> size(const std::string& repo_id, const std::string& commit, const std::string& path) const;
  void store_size(const std::string& repo_id, const std::string& commit, const std::string& path, std::uint64_t size);
  // The bytes of `range`, when cached pieces cover all of it.
  std::optional<std::vector<std::uint8_t>> read(const std::string& repo_id, const std::string& commit, const std::string& path,
                                                ByteRange range) const;
  // Keeps a range that arrived, written on a thread of its own where there are threads (the
  // reading goes on meanwhile; the destructor waits for the writes under way, each of which
  // lands whole or not at all). A write that fails (a full disk) is dropped: the reading has
  // its bytes in memory, and the next run asks again.
  void store(const std::string& repo_id, const std::string& commit, const std::string& path, std::uint64_t offset,
             std::shared_ptr<const std::vector<std::uint8_t>> bytes);
  // Waits for the writes under way.
  void flush();
  ~RangeCache();
  RangeCache(const RangeCache&) = delete;
  RangeCache& operator=(const RangeCache&) = delete;

 private:
  struct Writer;
  std::filesystem::path folder(const std::string& repo_id, const std::string& commit, const std::string& path) const;
  std::filesystem::path root_;
  std::unique_ptr<Writer> writer_;
};

}  // namespace pe
