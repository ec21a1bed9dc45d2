#pragma once
// Where a weights file's bytes come from: on the desktop a read-only memory mapping of the
// file (nothing is copied; only the pages of the tensors read are ever touched), a buffer in
// memory (tests, fuzzers), or a file whose bytes arrive in ranges (pe/weights/ranged_file.hpp:
// a model on the Hugging Face Hub, a file dropped on a browser page). The readers ask for the
// ranges they read (read(offset, length)): a view of the mapping or buffer, nothing copied,
// or of a range loaded before.
#include "pe/weights/module_guard.hpp"
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace pe {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  ByteSource(const ByteSource&) = delete;
  ByteSource& operator=(const ByteSource&) = delete;

  // The whole file, for a source held whole (a mapping or a buffer); empty for a ranged file.
  std::span<const std::uint8_t> bytes() const noexcept { return bytes_; }
  std::uint64_t size() const noexcept { return size_; }
  // The file as messages name it (the path given, or the name a buffer was given).
  const std::string& name() const noexcept { return name_; }

  // Hints, no-ops for memory. will_read: the range is read next (the kernel may read it
  // ahead and map it in one go). done_reading: the range was read and its pages may leave
  // this process (they stay in the page cache), so a 16 GB checkpoint read front to back
  // never holds more than a layer's pages. Ranges past the end are clipped.
  virtual void will_read(std::uint64_t offset, std::uint64_t length) const;
  virtual void done_reading(std::uint64_t offset, std::uint64_t length) const;
  // Whether size() is known (a ranged file learns its size from its first answer).
  virtual bool size_known() const noexcept { return true; }
  // Whether bytes() is a mapping of a file (false: a buffer or a ranged file).
  virtual bool mapped() const noexcept { return false; }
  // The bytes of [offset, offset + length). A source held whole returns a view of its bytes;
  // a ranged file those of a range loaded before (else it throws pe::BytesNotLoaded, for the
  // caller to load them and try again). Throws WeightsError when the range runs past the end.
  virtual std::span<const std::uint8_t> read(std::uint64_t offset, std::uint64_t length) const;

 protected:
  ByteSource(std::span<const std::uint8_t> bytes, std::string name)
      : bytes_(bytes), size_(bytes.size()), name_(std::move(name)) {}
  void reset_bytes(std::span<const std::uint8_t> bytes) noexcept {
    bytes_ = bytes;
    size_ = bytes.size();
  }
  // A ranged file's size, learnt from its first answer.
  void reset_size(std::uint64_t size) noexcept { size_ = size; }
  // Throws WeightsError naming the file when [offset, offset + length) is not inside it.
  void check_range(std::uint64_t offset, std::uint64_t length) const;

 private:
  std::span<const std::uint8_t> bytes_;
  std::uint64_t size_ = 0;
  std::string name_;
};

// Maps a regular file read-only (POSIX mmap). Throws WeightsError naming the file when it is
// missing, a directory or not a regular file, or cannot be mapped. Where there is no mmap
// (the browser), reads the whole file into memory instead.
std::shared_ptr<const ByteSource> map_file(const std::filesystem::path& path);
// Bytes already in memory, owned by the source.
std::shared_ptr<const ByteSource> memory_source(std::vector<std::uint8_t> bytes, std::string name);
// Bytes owned by the caller, who keeps them alive as long as the source and everything read
// from it (a fuzzer's input, a test's buffer).
std::shared_ptr<const ByteSource> borrowed_source(std::span<const std::uint8_t> bytes, std::string name);

// Whether this build maps files (false: map_file reads them).
bool file_mapping_available() noexcept;

}  // namespace pe
