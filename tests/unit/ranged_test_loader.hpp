#pragma once
// A RangeLoader over files in memory, for the ranged-reading tests: loads complete on the
// next pump() (or after `delay_pumps` pumps), each request is logged with its range, and the
// bytes moved are counted, so a test can say exactly what a reading asked for.
#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "pe/weights/ranged_file.hpp"
#include "pe/weights/weights_error.hpp"

namespace pe_test {

class MemoryRangeLoader final : public pe::RangeLoader {
 public:
  struct Request {
    std::string locator;
    pe::ByteRange range;
  };

  void put(const std::string& locator, std::vector<std::uint8_t> bytes) { files_[locator] = std::move(bytes); }
  std::shared_ptr<pe::RangedFile> file(const std::string& locator, bool size_known = true) {
    return pe::RangedFile::make(locator, locator, size_known ? std::optional<std::uint64_t>(files_.at(locator).size()) : std::nullopt);
  }

  void load(const std::shared_ptr<const pe::RangedFile>& file, const std::vector<pe::ByteRange>& ranges) override {
    for (const pe::ByteRange& r : ranges) {
      for (const pe::ByteRange& part : file->size_known() ? file->missing(r) : std::vector<pe::ByteRange>{r}) {
        pending_.push_back({file, part, delay_pumps});
        requests.push_back({file->locator(), part});
      }
    }
  }
  bool pump(int) override {
    for (auto it = pending_.begin(); it != pending_.end();) {
      if (it->wait-- > 0) {
        ++it;
        continue;
      }
      const auto found = files_.find(it->file->locator());
      if (found == files_.end()) throw pe::WeightsError(it->file->name(), "", "no such file (test loader)");
      const std::vector<std::uint8_t>& bytes = found->second;
      if (!it->file->size_known()) it->file->set_size(bytes.size());
      const std::uint64_t end = std::min<std::uint64_t>(bytes.size(), it->range.end());
      if (it->range.offset < end) {
        it->file->add(it->range.offset, std::vector<std::uint8_t>(bytes.begin() + static_cast<std::ptrdiff_t>(it->range.offset),
                                                                  bytes.begin() + static_cast<std::ptrdiff_t>(end)));
        moved_ += end - it->range.offset;
      }
      it = pending_.erase(it);
    }
    return pending_.empty();
  }
  void cancel() override { pending_.clear(); }
  std::uint64_t bytes_moved() const override { return moved_; }
  std::uint64_t bytes_pending() const override {
    std::uint64_t n = 0;
    for (const auto& p : pending_) n += p.range.length;
    return n;
  }

  std::vector<Request> requests;
  int delay_pumps = 0;

 private:
  struct Pending {
    std::shared_ptr<const pe::RangedFile> file;
    pe::ByteRange range;
    int wait;
  };
  std::map<std::string, std::vector<std::uint8_t>> files_;
  std::vector<Pending> pending_;
  std::uint64_t moved_ = 0;
};

}  // namespace pe_test
