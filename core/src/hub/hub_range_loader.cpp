#include "pe/hub/hub_range_loader.hpp"

#include <algorithm>

namespace pe {

HubRangeLoader::HubRangeLoader(HubClient& client, RangeCache& cache, std::string repo_id, std::string commit, std::uint64_t part_bytes)
    : client_(client), cache_(cache), repo_id_(std::move(repo_id)), commit_(std::move(commit)), part_bytes_(std::max<std::uint64_t>(part_bytes, 1)) {}

std::shared_ptr<const RangedFile> HubRangeLoader::file(const std::string& path) {
  auto [it, added] = files_.emplace(path, nullptr);
  if (added) it->second = RangedFile::make(repo_id_ + ": " + path, path, cache_.size(repo_id_, commit_, path));
  return it->second;
}

std::vector<ByteRange> HubRangeLoader::not_pending(const RangedFile& file, ByteRange range) const {
  std::vector<ByteRange> out = file.size_known() ? file.missing(range) : std::vector<ByteRange>{range};
  for (const Part& p : parts_) {
    if (p.file.get() != &file) continue;
    std::vector<ByteRange> left;
    for (const ByteRange& r : out) {
      if (p.range.end() <= r.offset || p.range.offset >= r.end()) {
        left.push_back(r);
        continue;
      }
      if (r.offset < p.range.offset) left.push_back({r.offset, p.range.offset - r.offset});
      if (r.end() > p.range.end()) left.push_back({p.range.end(), r.end() - p.range.end()});
    }
    out = std::move(left);
  }
  return out;
}

void HubRangeLoader::load(const std::shared_ptr<const RangedFile>& file, const std::vector<ByteRange>& ranges) {
  for (ByteRange asked : ranges) {
    if (file->size_known()) asked.length = asked.offset >= file->size() ? 0 : std::min(asked.length, file->size() - asked.offset);
    if (asked.length == 0) continue;
    for (const ByteRange& r : not_pending(*file, asked)) {
      if (file->size_known()) {
        if (auto bytes = cache_.read(repo_id_, commit_, file->locator(), r)) {
          from_cache_ += bytes->size();
          file->add(r.offset, std::move(*bytes));
          continue;
        }
      }
      for (std::uint64_t at = r.offset; at < r.end(); at += part_bytes_) {
        const ByteRange part{at, std::min(part_bytes_, r.end() - at)};
        parts_.push_back({client_.fetch(repo_id_, commit_, file->locator(), part), file, part});
      }
    }
  }
}

bool HubRangeLoader::pump(int wait_ms) {
  if (!parts_.empty()) client_.pump(wait_ms);
  for (auto it = parts_.begin(); it != parts_.end();) {
    if (!client_.finished(it->fetch)) {
      ++it;
      continue;
    }
    const Part part = *it;
    it = parts_.erase(it);
    HubFetchResult r = client_.take(part.fetch);  // a HubError names the model, the file and the range
    if (!part.file->size_known() && r.size) {
      part.file->set_size(*r.size);
      cache_.store_size(repo_id_, commit_, part.file->locator(), *r.size);
    }
    auto body = std::make_shared<const std::vector<std::uint8_t>>(std::move(r.answer.body));
    cache_.store(repo_id_, commit_, part.file->locator(), part.range.offset, body);
    part.file->add(part.range.offset, std::move(body));
  }
  return parts_.empty();
}

void HubRangeLoader::cancel() {
  client_.cancel_all();
  parts_.clear();
  cache_.flush();  // what arrived whole is kept whole
}

std::uint64_t HubRangeLoader::bytes_pending() const {
  std::uint64_t n = 0;
  for (const Part& p : parts_) n += p.range.length;
  return n;
}

}  // namespace pe
