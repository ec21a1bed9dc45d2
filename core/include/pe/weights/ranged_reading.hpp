#pragma once
// Reading ranged files (pe/weights/ranged_file.hpp) with a RangeLoader, in steps that never
// block for long: each advance() starts the loads the reading needs next and does what can be
// done with the bytes at hand. On the desktop a loop calls advance(wait) until done (the wait
// lets the loader sleep on its sockets); a browser page calls advance(0) once per frame.
//
//   Opening (headers, an index): RangedTasks runs restartable work — a function that reads
//   what it likes; when it stops at bytes not loaded (BytesNotLoaded), those bytes (widened by
//   the task's rule: a safetensors header's first read is 100 kB, a GGUF header's reads grow)
//   are loaded and the function runs again from the start. Several tasks load in parallel.
//   Measuring: RangedFrequencyReading loads each batch's q/k ranges (joined where they touch)
//   before FrequencyUsageReading sums it, and the next batch's while it sums this one; a
//   batch's ranges are released once summed, so a 16 GB checkpoint holds about two batches.
#include "pe/weights/module_guard.hpp"
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "pe/weights/frequency_usage.hpp"
#include "pe/weights/ranged_file.hpp"

namespace pe {

// What to load when a read of `missed` failed: at least the missing part of it.
using RangeWidening = std::function<ByteRange(const RangedFile& file, ByteRange missed)>;
// A safetensors file's header: its first read is bytes 0-100000 (most headers fit; the rest,
// if longer, is loaded when the parser asks for it).
ByteRange widen_safetensors_read(const RangedFile& file, ByteRange missed);
// A GGUF header (metadata and tensor infos, some MB with a tokenizer, read front to back):
// from the byte missed, as much again as is loaded (at least 1 MiB), so a header of n bytes
// takes about log2(n / 1 MiB) + 1 loads.
ByteRange widen_gguf_read(const RangedFile& file, ByteRange missed);

class RangedTasks {
 public:
  // Adds work that may stop at bytes not loaded; it runs again from the start once they are.
  void add(std::function<void()> work, RangeWidening widen = {});
  // Runs the tasks that can run, starts the loads they stopped at, and waits up to wait_ms
  // for them. True when every task has run to its end. A task's own error (WeightsError ...)
  // and a failed load throw; a task that stops twice at bytes already loaded is a WeightsError.
  bool advance(RangeLoader& loader, int wait_ms);
  bool done() const;

 private:
  struct Task {
    std::function<void()> work;
    RangeWidening widen;
    bool finished = false;
    bool waiting = false;
    std::shared_ptr<const RangedFile> missed_file;
    ByteRange missed;
  };
  std::vector<Task> tasks_;
};

// Runs `work` to its end over ranged files, loading what it misses, waiting on the loader
// (the desktop's way; a page uses RangedTasks one frame at a time).
void run_ranged(RangeLoader& loader, const std::function<void()>& work, RangeWidening widen = {},
                const std::function<bool()>& keep_going = {});

class RangedFrequencyReading {
 public:
  // `ahead`: batches loaded beyond the one being summed (1: the next one loads while this one
  // is summed). Ranges that lie within `join_gap` bytes of each other load as one.
  RangedFrequencyReading(FrequencyUsageReading reading, RangeLoader& loader, std::size_t ahead = 1,
                         std::uint64_t join_gap = 4096);
  // Starts the loads the next batches need; sums the next batch when its bytes are in. True
  // when every batch is summed (then take()). Throws what the reading and the loader throw.
  bool advance(int wait_ms);
  bool done() const { return reading_.done(); }
  WeightsProgress progress() const { return reading_.progress(); }
  FrequencyUsage take() { return reading_.take(); }
  // The largest number of bytes the ranged files held at once (the memory bound, measured).
  std::uint64_t peak_resident_bytes() const { return peak_resident_; }

 private:
  struct Load {
    std::shared_ptr<const RangedFile> file;
    std::vector<ByteRange> ranges;
  };
  std::vector<Load> loads_of(std::size_t batch) const;
  bool batch_at_hand(std::size_t batch) const;

  FrequencyUsageReading reading_;
  RangeLoader& loader_;
  std::size_t ahead_;
  std::uint64_t join_gap_;
  std::size_t requested_up_to_ = 0;  // batches [0, requested_up_to_) have had their loads started
  std::uint64_t peak_resident_ = 0;
};

}  // namespace pe
