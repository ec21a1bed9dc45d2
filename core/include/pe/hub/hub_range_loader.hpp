#pragma once
// Ranges of a repository's files over HTTP (HubClient), kept in pe-viz's range cache: a range
// already cached is served from it and moves no bytes; ranges over part_bytes are fetched as
// parts in parallel (the client runs HubSettings::parallel at once); each part is written to
// the cache as it arrives. Files are named by their path in the repository, read at one commit.
#include "pe/hub/module_guard.hpp"
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "pe/hub/hub_caches.hpp"
#include "pe/hub/hub_client.hpp"
#include "pe/weights/ranged_file.hpp"

namespace pe {

class HubRangeLoader final : public RangeLoader {
 public:
  HubRangeLoader(HubClient& client, RangeCache& cache, std::string repo_id, std::string commit,
                 std::uint64_t part_bytes = std::uint64_t{16} << 20);

  // The ranged file of `path` (its size from the range cache when known, else from the first
  // answer). Asking twice gives the same file.
  std::shared_ptr<const RangedFile> file(const std::string& path);

  void load(const std::shared_ptr<const RangedFile>& file, const std::vector<ByteRange>& ranges) override;
  bool pump(int wait_ms) override;
  void cancel() override;
  std::uint64_t bytes_moved() const override { return client_.bytes_received(); }
  std::uint64_t bytes_from_cache() const override { return from_cache_; }
  std::uint64_t bytes_pending() const override;
  std::string notice() const override { return client_.notice(); }

 private:
  struct Part {
    HubClient::Id fetch;
    std::shared_ptr<const RangedFile> file;
    ByteRange range;
  };
  std::vector<ByteRange> not_pending(const RangedFile& file, ByteRange range) const;

  HubClient& client_;
  RangeCache& cache_;
  std::string repo_id_, commit_;
  std::uint64_t part_bytes_;
  std::map<std::string, std::shared_ptr<const RangedFile>> files_;
  std::vector<Part> parts_;
  std::uint64_t from_cache_ = 0;
};

}  // namespace pe
