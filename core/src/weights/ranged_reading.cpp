#include "pe/weights/ranged_reading.hpp"

#include <algorithm>
#include <map>

#include "pe/weights/safetensors.hpp"
#include "pe/weights/weights_error.hpp"

namespace pe {

namespace {

std::string range_text(ByteRange r) { return "bytes " + std::to_string(r.offset) + "-" + std::to_string(r.end() - 1); }

// The part of `r` inside a file of known size.
ByteRange clipped(const RangedFile& file, ByteRange r) {
  if (!file.size_known()) return r;
  const std::uint64_t end = std::min(r.end(), file.size());
  return r.offset >= end ? ByteRange{r.offset, 0} : ByteRange{r.offset, end - r.offset};
}

}  // namespace

ByteRange widen_safetensors_read(const RangedFile& file, ByteRange missed) {
  if (missed.offset < kSafetensorsFirstRead && !file.loaded({0, std::min<std::uint64_t>(8, kSafetensorsFirstRead)}))
    return clipped(file, {0, std::max(kSafetensorsFirstRead, missed.end())});
  return missed;
}

ByteRange widen_gguf_read(const RangedFile& file, ByteRange missed) {
  // As much again as is loaded (at least 1 MiB) from where the parser stopped: the header is
  // read front to back, but the parts of long strings it does not keep are skipped, not read.
  constexpr std::uint64_t kFirst = std::uint64_t{1} << 20;
  return clipped(file, {missed.offset, std::max(missed.length, std::max(kFirst, file.resident_bytes()))});
}

void RangedTasks::add(std::function<void()> work, RangeWidening widen) { tasks_.push_back({std::move(work), std::move(widen)}); }

bool RangedTasks::done() const {
  return std::all_of(tasks_.begin(), tasks_.end(), [](const Task& t) { return t.finished; });
}

bool RangedTasks::advance(RangeLoader& loader, int wait_ms) {
  const bool waiting = std::any_of(tasks_.begin(), tasks_.end(), [](const Task& t) { return t.waiting; });
  if (waiting && !loader.pump(wait_ms)) return false;
  for (Task& t : tasks_) {
    if (t.finished) continue;
    try {
      t.work();
      t.finished = true;
      t.waiting = false;
    } catch (const BytesNotLoaded& e) {
      const ByteRange missed = e.range();
      // Loaded and missed again: the loader could not bring these bytes (a file shorter than
      // its answers said); stop rather than ask forever.
      if (t.waiting && t.missed_file == e.file() && t.missed == missed)
        throw WeightsError(e.file()->name(), "", range_text(missed) + " could not be loaded (the file is " +
                                                      std::to_string(e.file()->size()) + " bytes)");
      // The widened range and whatever of the missed one it leaves out.
      std::vector<ByteRange> want = e.file()->size_known() ? e.file()->missing(missed) : std::vector<ByteRange>{missed};
      if (t.widen) want.push_back(t.widen(*e.file(), missed));
      t.missed_file = e.file();
      t.missed = missed;
      t.waiting = true;
      loader.load(e.file(), merged_ranges(std::move(want)));
    }
  }
  return done();
}

void run_ranged(RangeLoader& loader, const std::function<void()>& work, RangeWidening widen, const std::function<bool()>& keep_going) {
  RangedTasks tasks;
  tasks.add(work, std::move(widen));
  while (!tasks.advance(loader, 100))
    if (keep_going && !keep_going()) {
      loader.cancel();
      throw WeightsCancelled();
    }
}

RangedFrequencyReading::RangedFrequencyReading(FrequencyUsageReading reading, RangeLoader& loader, std::size_t ahead,
                                               std::uint64_t join_gap)
    : reading_(std::move(reading)), loader_(loader), ahead_(ahead), join_gap_(join_gap) {}

std::vector<RangedFrequencyReading::Load> RangedFrequencyReading::loads_of(std::size_t batch) const {
  std::map<const RangedFile*, Load> by_file;
  for (const SourceRange& r : reading_.batch_ranges(batch)) {
    const auto* file = dynamic_cast<const RangedFile*>(r.source.get());
    if (!file) continue;  // held whole (a mapping): nothing to load
    Load& l = by_file[file];
    if (!l.file) l.file = std::static_pointer_cast<const RangedFile>(r.source);
    l.ranges.push_back(r.range);
  }
  std::vector<Load> out;
  for (auto& [file, l] : by_file) {
    l.ranges = merged_ranges(std::move(l.ranges), join_gap_);
    out.push_back(std::move(l));
  }
  return out;
}

bool RangedFrequencyReading::batch_at_hand(std::size_t batch) const {
  for (const Load& l : loads_of(batch))
    for (const ByteRange& r : l.ranges)
      if (!l.file->loaded(r)) return false;
  return true;
}

bool RangedFrequencyReading::advance(int wait_ms) {
  if (reading_.done()) return true;
  const std::size_t next = reading_.next_batch();
  requested_up_to_ = std::max(requested_up_to_, next);
  for (; requested_up_to_ < std::min(reading_.batch_count(), next + 1 + ahead_); ++requested_up_to_)
    for (const Load& l : loads_of(requested_up_to_)) loader_.load(l.file, l.ranges);
  if (!batch_at_hand(next)) {
    loader_.pump(wait_ms);
    if (!batch_at_hand(next)) return false;
  } else {
    loader_.pump(0);  // the next batch's transfers keep moving (and their errors surface)
  }
  std::uint64_t resident = 0;
  std::map<const RangedFile*, std::uint64_t> seen;
  for (std::size_t b = next; b < requested_up_to_; ++b)
    for (const Load& l : loads_of(b)) seen.emplace(l.file.get(), l.file->resident_bytes());
  for (const auto& [file, bytes] : seen) resident += bytes;
  peak_resident_ = std::max(peak_resident_, resident);
  reading_.read_next_batch();
  for (const Load& l : loads_of(next))
    for (const ByteRange& r : l.ranges) l.file->done_reading(r.offset, r.length);
  return reading_.done();
}

}  // namespace pe
