#pragma once
// Crash-safe replacement of a file, shared by every writer (PNG, CSV, sessions, the deck's
// index.html): the bytes go to a temporary file next to the target, renamed over it only
// when complete and on disk, so a crash or SIGKILL leaves the old file or the new one,
// never a mixture.
//
// Temporaries are named ".<target name>.pe-viz-tmp-<pid>-XXXXXX" and flock()ed while
// written. A killed writer leaves one behind; remove_stale_temp_files() deletes those whose
// lock is free and whose writer is dead (or that are over a minute old), and never the
// temporary of a writer still at work. Every AtomicFile runs it on its directory first.
#include <cstddef>
#include <filesystem>
#include <string>

namespace app {

class AtomicFile {
 public:
  // Cleans stale temporaries in the target's directory, then creates this one. Throws
  // std::runtime_error "cannot write <target>: <reason>" when the directory is missing or
  // unwritable, or the target is a directory or a read-only file (not replaced silently).
  explicit AtomicFile(std::filesystem::path target);
  ~AtomicFile();  // not committed: the temporary is removed, the target untouched
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const void* data, std::size_t size);  // throws std::runtime_error
  void commit();                                   // fsync, rename over the target; throws

  const std::filesystem::path& target() const { return target_; }
  const std::filesystem::path& temp_path() const { return temp_; }

 private:
  [[noreturn]] void fail(const std::string& step, int error);
  void discard() noexcept;

  std::filesystem::path target_, temp_;
  int fd_ = -1;
};

// Writes `contents` to `path` through an AtomicFile.
void write_file_atomic(const std::filesystem::path& path, const void* data, std::size_t size);

// True for names AtomicFile gives its temporaries (".x.png.pe-viz-tmp-123-a1B2c3").
bool is_atomic_temp_name(const std::string& file_name);

// Deletes stale temporaries of ours in `dir` (see above); returns how many. Never throws;
// a missing directory is nothing to do.
std::size_t remove_stale_temp_files(const std::filesystem::path& dir) noexcept;

}  // namespace app
