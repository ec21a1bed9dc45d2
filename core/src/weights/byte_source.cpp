// Byte sources: mmap on POSIX systems, memory everywhere. The browser build (emscripten)
// has no useful mmap of real files, so map_file reads the file there instead; everything
// above sees the same span.
#include "pe/weights/byte_source.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <system_error>
#include <utility>

#include "pe/weights/weights_error.hpp"

#if defined(__unix__) && !defined(__EMSCRIPTEN__)
#define PE_WEIGHTS_MMAP 1
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#else
#define PE_WEIGHTS_MMAP 0
#endif

namespace pe {

void ByteSource::will_read(std::uint64_t, std::uint64_t) const {}
void ByteSource::done_reading(std::uint64_t, std::uint64_t) const {}

void ByteSource::check_range(std::uint64_t offset, std::uint64_t length) const {
  if (offset > size_ || length > size_ - offset)
    throw WeightsError(name_, "", "bytes " + std::to_string(offset) + " to " + std::to_string(offset) + " + " + std::to_string(length) +
                                      " lie past the end of the file (" + std::to_string(size_) + " bytes)");
}

std::span<const std::uint8_t> ByteSource::read(std::uint64_t offset, std::uint64_t length) const {
  check_range(offset, length);
  return bytes_.subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(length));
}

namespace {

class OwnedMemory final : public ByteSource {
 public:
  OwnedMemory(std::vector<std::uint8_t> bytes, std::string name) : ByteSource({}, std::move(name)), data_(std::move(bytes)) {
    reset_bytes(data_);
  }

 private:
  std::vector<std::uint8_t> data_;
};

class BorrowedMemory final : public ByteSource {
 public:
  BorrowedMemory(std::span<const std::uint8_t> bytes, std::string name) : ByteSource(bytes, std::move(name)) {}
};

void check_regular_file(const std::filesystem::path& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status))
    throw WeightsError(path.string(), "", "cannot open: " + (ec ? ec.message() : std::string("no such file")));
  if (std::filesystem::is_directory(status)) throw WeightsError(path.string(), "", "is a directory, not a weights file");
  // A FIFO or a device would block or never end.
  if (!std::filesystem::is_regular_file(status)) throw WeightsError(path.string(), "", "is not a regular file");
}

#if PE_WEIGHTS_MMAP

class MappedFile final : public ByteSource {
 public:
  explicit MappedFile(const std::filesystem::path& path) : ByteSource({}, path.string()) {
    check_regular_file(path);
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw WeightsError(name(), "", std::string("cannot open: ") + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
      const std::string reason = std::strerror(errno);
      ::close(fd);
      throw WeightsError(name(), "", "cannot stat: " + reason);
    }
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size > static_cast<std::uint64_t>(SIZE_MAX)) {
      ::close(fd);
      throw WeightsError(name(), "", "is larger than this build's address space");
    }
    // mmap refuses a zero length; an empty file is an empty span (the readers reject it).
    if (size > 0) {
      void* p = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_SHARED, fd, 0);
      if (p == MAP_FAILED) {
        const std::string reason = std::strerror(errno);
        ::close(fd);
        throw WeightsError(name(), "", "cannot map: " + reason);
      }
      base_ = p;
      length_ = static_cast<std::size_t>(size);
      reset_bytes({static_cast<const std::uint8_t*>(p), length_});
    }
    // The mapping keeps the file referenced; the descriptor is no longer needed.
    ::close(fd);
  }
  ~MappedFile() override {
    if (base_) ::munmap(base_, length_);
  }

  void will_read(std::uint64_t offset, std::uint64_t length) const override {
    if (const auto r = pages(offset, length, false); r.second) ::madvise(r.first, r.second, MADV_WILLNEED);
  }
  void done_reading(std::uint64_t offset, std::uint64_t length) const override {
    // Only whole pages inside the range: a neighbour tensor sharing the boundary page keeps it.
    if (const auto r = pages(offset, length, true); r.second) ::madvise(r.first, r.second, MADV_DONTNEED);
  }
  bool mapped() const noexcept override { return true; }

 private:
  // The page-aligned span of [offset, offset + length) within the mapping: widened to whole
  // pages (inner = false) or narrowed to the pages wholly inside it (inner = true).
  std::pair<void*, std::size_t> pages(std::uint64_t offset, std::uint64_t length, bool inner) const {
    if (!base_ || offset >= length_) return {nullptr, 0};
    const std::uint64_t end = std::min<std::uint64_t>(length_, offset + std::min<std::uint64_t>(length, length_ - offset));
    static const std::uint64_t page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    std::uint64_t first = offset / page * page, last = (end + page - 1) / page * page;
    if (inner) {
      first = (offset + page - 1) / page * page;
      last = end == length_ ? last : end / page * page;
    }
    last = std::min<std::uint64_t>(last, (length_ + page - 1) / page * page);
    if (last <= first) return {nullptr, 0};
    return {static_cast<std::uint8_t*>(base_) + first, static_cast<std::size_t>(last - first)};
  }

  void* base_ = nullptr;
  std::size_t length_ = 0;
};

#endif

}  // namespace

std::shared_ptr<const ByteSource> map_file(const std::filesystem::path& path) {
#if PE_WEIGHTS_MMAP
  return std::make_shared<MappedFile>(path);
#else
  check_regular_file(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw WeightsError(path.string(), "", "cannot open");
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return std::make_shared<OwnedMemory>(std::move(bytes), path.string());
#endif
}

std::shared_ptr<const ByteSource> memory_source(std::vector<std::uint8_t> bytes, std::string name) {
  return std::make_shared<OwnedMemory>(std::move(bytes), std::move(name));
}

std::shared_ptr<const ByteSource> borrowed_source(std::span<const std::uint8_t> bytes, std::string name) {
  return std::make_shared<BorrowedMemory>(bytes, std::move(name));
}

bool file_mapping_available() noexcept { return PE_WEIGHTS_MMAP != 0; }

}  // namespace pe
