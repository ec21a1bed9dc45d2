// Ranged files: loaded ranges kept as disjoint chunks by offset, as they arrived; a read within
// one chunk is a view of it, a read across chunks that touch joins them (a header loaded in two
// requests reads as one).
#include "pe/weights/ranged_file.hpp"

#include <algorithm>
#include <cstring>

#include "pe/weights/weights_error.hpp"

namespace pe {

std::vector<ByteRange> merged_ranges(std::vector<ByteRange> ranges, std::uint64_t gap) {
  std::erase_if(ranges, [](const ByteRange& r) { return r.length == 0; });
  std::sort(ranges.begin(), ranges.end(), [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
  std::vector<ByteRange> out;
  for (const ByteRange& r : ranges) {
    if (!out.empty() && r.offset <= out.back().end() + gap) {
      out.back().length = std::max(out.back().end(), r.end()) - out.back().offset;
    } else {
      out.push_back(r);
    }
  }
  return out;
}

namespace {
std::string range_text(ByteRange r) {
  return "bytes " + std::to_string(r.offset) + "-" + std::to_string(r.end() == 0 ? 0 : r.end() - 1);
}
}  // namespace

BytesNotLoaded::BytesNotLoaded(std::shared_ptr<const RangedFile> file, ByteRange range)
    : std::runtime_error((file ? file->name() : std::string("(file)")) + ": " + range_text(range) + " are not loaded yet"),
      file_(std::move(file)),
      range_(range) {}

RangedFile::RangedFile(std::string name, std::string locator, std::optional<std::uint64_t> size)
    : ByteSource({}, std::move(name)), locator_(std::move(locator)) {
  if (size) {
    reset_size(*size);
    size_known_ = true;
  }
}

std::shared_ptr<RangedFile> RangedFile::make(std::string name, std::string locator, std::optional<std::uint64_t> size) {
  return std::shared_ptr<RangedFile>(new RangedFile(std::move(name), std::move(locator), size));
}

void RangedFile::set_size(std::uint64_t size) const {
  std::lock_guard lock(mutex_);
  // Learnt once, before any reader runs: the size is part of what the file is, not of what is loaded.
  const_cast<RangedFile*>(this)->reset_size(size);
  size_known_ = true;
}

RangedFile::Chunks::const_iterator RangedFile::chunk_at(std::uint64_t offset) const {
  auto it = chunks_.upper_bound(offset);
  if (it == chunks_.begin()) return chunks_.end();
  --it;
  return offset < it->first + it->second->size() ? it : chunks_.end();
}

void RangedFile::add(std::uint64_t offset, std::vector<std::uint8_t> bytes) const {
  add(offset, std::make_shared<const std::vector<std::uint8_t>>(std::move(bytes)));
}

void RangedFile::add(std::uint64_t offset, std::shared_ptr<const std::vector<std::uint8_t>> bytes) const {
  // Kept as it came (no copy); only the parts not at hand yet are added. Chunks that touch are
  // joined later, and only when a read spans them (read()).
  if (!bytes || bytes->empty()) return;
  for (const ByteRange& part : missing({offset, bytes->size()})) {
    std::shared_ptr<const std::vector<std::uint8_t>> chunk = bytes;
    if (part.offset != offset || part.length != bytes->size()) {
      const auto first = bytes->begin() + static_cast<std::ptrdiff_t>(part.offset - offset);
      chunk = std::make_shared<const std::vector<std::uint8_t>>(first, first + static_cast<std::ptrdiff_t>(part.length));
    }
    std::lock_guard lock(mutex_);
    chunks_.emplace(part.offset, std::move(chunk));
  }
}

bool RangedFile::loaded(ByteRange range) const { return missing(range).empty(); }

std::vector<ByteRange> RangedFile::missing(ByteRange range) const {
  std::lock_guard lock(mutex_);
  std::vector<ByteRange> out;
  std::uint64_t at = range.offset;
  const std::uint64_t end = range.end();
  while (at < end) {
    const auto it = chunk_at(at);
    if (it != chunks_.end()) {
      at = it->first + it->second->size();
      continue;
    }
    const auto next = chunks_.upper_bound(at);
    const std::uint64_t stop = next == chunks_.end() ? end : std::min<std::uint64_t>(end, next->first);
    out.push_back({at, stop - at});
    at = stop;
  }
  return out;
}

std::uint64_t RangedFile::resident_bytes() const {
  std::lock_guard lock(mutex_);
  std::uint64_t n = 0;
  for (const auto& [offset, bytes] : chunks_) n += bytes->size();
  return n;
}

std::span<const std::uint8_t> RangedFile::read(std::uint64_t offset, std::uint64_t length) const {
  if (size_known_) check_range(offset, length);
  if (size_known_) {
    std::lock_guard lock(mutex_);
    if (length == 0) return {};
    auto it = chunk_at(offset);
    if (it != chunks_.end() && offset + length <= it->first + it->second->size())
      return std::span<const std::uint8_t>(*it->second).subspan(static_cast<std::size_t>(offset - it->first), static_cast<std::size_t>(length));
    // Chunks that follow each other without a gap and cover the range: joined into one (a
    // header that arrived in two requests).
    auto last = it;
    while (last != chunks_.end() && last->first + last->second->size() < offset + length) {
      const auto next = std::next(last);
      if (next == chunks_.end() || next->first != last->first + last->second->size()) {
        last = chunks_.end();
        break;
      }
      last = next;
    }
    if (it != chunks_.end() && last != chunks_.end()) {
      const std::uint64_t first = it->first;
      std::vector<std::uint8_t> joined;
      for (auto c = it; c != std::next(last); ++c) joined.insert(joined.end(), c->second->begin(), c->second->end());
      chunks_.erase(it, std::next(last));
      const auto& chunk = *chunks_.emplace(first, std::make_shared<const std::vector<std::uint8_t>>(std::move(joined))).first->second;
      return std::span<const std::uint8_t>(chunk).subspan(static_cast<std::size_t>(offset - first), static_cast<std::size_t>(length));
    }
  }
  throw BytesNotLoaded(shared_from_this(), {offset, length});
}

void RangedFile::done_reading(std::uint64_t offset, std::uint64_t length) const {
  std::lock_guard lock(mutex_);
  const std::uint64_t end = offset + length;
  for (auto it = chunks_.lower_bound(offset); it != chunks_.end() && it->first < end;) {
    if (it->first + it->second->size() <= end) it = chunks_.erase(it);
    else ++it;
  }
}

}  // namespace pe
