#pragma once
// A weights file whose bytes arrive in ranges: a model on the Hugging Face Hub (HTTP range
// requests) or a file dropped on a browser page (File.slice). It is a ByteSource like the
// memory map, so the safetensors and GGUF readers and the q/k measure read it unchanged; only
// the ranges they ask for are ever loaded, and read() of bytes not loaded yet throws
// BytesNotLoaded, naming the file and the range, for whoever drives the reading to load them
// (RangeLoader) and run the reader again. The measure knows its ranges in advance
// (FrequencyUsageReading::batch_ranges) and has them loaded before it reads a batch.
//
// Loaded ranges are kept until done_reading() releases them (the measure does after each batch),
// so memory stays at about a batch or two of q/k bytes, whatever the checkpoint's size.
#include "pe/weights/module_guard.hpp"
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "pe/weights/byte_source.hpp"

namespace pe {

struct ByteRange {
  std::uint64_t offset = 0, length = 0;
  std::uint64_t end() const { return offset + length; }
  bool operator==(const ByteRange&) const = default;
};

// Sorted, with ranges that touch or lie within `gap` bytes of each other joined (reading a small
// gap costs less than another request).
std::vector<ByteRange> merged_ranges(std::vector<ByteRange> ranges, std::uint64_t gap = 0);

class RangedFile;

// A reader asked for bytes of a ranged file that are not loaded yet. Not a WeightsError: the
// input is fine, the reading is only early.
class BytesNotLoaded : public std::runtime_error {
 public:
  BytesNotLoaded(std::shared_ptr<const RangedFile> file, ByteRange range);
  const std::shared_ptr<const RangedFile>& file() const noexcept { return file_; }
  ByteRange range() const noexcept { return range_; }

 private:
  std::shared_ptr<const RangedFile> file_;
  ByteRange range_;
};

class RangedFile final : public ByteSource, public std::enable_shared_from_this<RangedFile> {
 public:
  // `name`: for messages (a URL path, the dropped file's name); `locator`: what the loader
  // fetches it by (the file's path in a Hub repository, a page's file id). `size`: nullopt
  // until the first answer tells it (set_size).
  static std::shared_ptr<RangedFile> make(std::string name, std::string locator, std::optional<std::uint64_t> size);

  const std::string& locator() const noexcept { return locator_; }
  bool size_known() const noexcept override { return size_known_; }

  // The loader's side (const: loading changes what is at hand, never the file's content).
  // The file's size, from the first answer (X-Linked-Size, Content-Range, File.size).
  void set_size(std::uint64_t size) const;
  // Bytes that arrived: [offset, offset + bytes.size()) (the parts not at hand yet; kept as
  // they came, shared with whoever else keeps them).
  void add(std::uint64_t offset, std::vector<std::uint8_t> bytes) const;
  void add(std::uint64_t offset, std::shared_ptr<const std::vector<std::uint8_t>> bytes) const;
  // Whether every byte of `range` is at hand.
  bool loaded(ByteRange range) const;
  // The parts of `range` not at hand.
  std::vector<ByteRange> missing(ByteRange range) const;
  // Bytes held now (for the memory bound).
  std::uint64_t resident_bytes() const;

  std::span<const std::uint8_t> read(std::uint64_t offset, std::uint64_t length) const override;
  // Releases the loaded ranges that lie wholly inside [offset, offset + length).
  void done_reading(std::uint64_t offset, std::uint64_t length) const override;

 private:
  RangedFile(std::string name, std::string locator, std::optional<std::uint64_t> size);
  using Chunks = std::map<std::uint64_t, std::shared_ptr<const std::vector<std::uint8_t>>>;  // by offset, disjoint
  Chunks::const_iterator chunk_at(std::uint64_t offset) const;  // the chunk holding offset, or end()

  std::string locator_;
  mutable bool size_known_ = false;
  mutable std::mutex mutex_;
  mutable Chunks chunks_;
};

// Loads ranges of ranged files, asynchronously: load() starts and returns; pump() moves the
// transfers along, delivering bytes to the files (RangedFile::add) as they complete. Over HTTP
// on the desktop (libcurl), with fetch() in a browser, through File.slice for a dropped file.
class RangeLoader {
 public:
  virtual ~RangeLoader() = default;
  // Starts loading `ranges` of `file` (it may split or join them; ranges already at hand are
  // skipped). The file's size need not be known yet: a range past its end is cut to it.
  virtual void load(const std::shared_ptr<const RangedFile>& file, const std::vector<ByteRange>& ranges) = 0;
  // Moves the loads along, waiting up to wait_ms for one to finish (0: return at once, as a
  // browser's frame must). True when nothing is pending. A failed load throws (WeightsError
  // or the loader's own error, naming the file and the range).
  virtual bool pump(int wait_ms) = 0;
  // Stops every load under way (nothing half-written stays behind).
  virtual void cancel() = 0;
  // Bytes moved so far (over the network or out of the page's file), and loaded from a cache.
  virtual std::uint64_t bytes_moved() const = 0;
  virtual std::uint64_t bytes_from_cache() const { return 0; }
  // Bytes of the loads under way still to come (for progress).
  virtual std::uint64_t bytes_pending() const = 0;
  // What the user should see now, beside the progress ("rate limited: waiting 5 s…"); "" none.
  virtual std::string notice() const { return {}; }
};

}  // namespace pe
