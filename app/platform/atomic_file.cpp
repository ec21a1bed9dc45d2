#include "platform/atomic_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace app {
namespace {

constexpr const char* kMarker = ".pe-viz-tmp-";
// A writer's temporary lives milliseconds to seconds; an unlocked one this old is stale
// even if its PID now belongs to some other process.
constexpr long kStaleSeconds = 60;

std::filesystem::path directory_of(const std::filesystem::path& path) {
  return path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
}

bool process_alive(long pid) {
  if (pid <= 0) return false;
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

// Test hook (crash_safe_files_test): stall half-way through each write so a test can
// SIGKILL the writer while its temporary is half written. Unset in normal use.
long stall_milliseconds() {
  const char* v = std::getenv("PE_VIZ_TEST_STALL_WRITE_MS");
  return v ? std::strtol(v, nullptr, 10) : 0;
}

}  // namespace

bool is_atomic_temp_name(const std::string& name) {
  // "." + target name + marker + pid digits + "-" + mkstemp's 6 characters
  const std::size_t at = name.rfind(kMarker);
  if (name.size() < 2 || name[0] != '.' || at == std::string::npos || at < 2) return false;
  const std::string rest = name.substr(at + std::strlen(kMarker));
  const std::size_t dash = rest.find('-');
  if (dash == 0 || dash == std::string::npos || rest.size() != dash + 7) return false;
  for (std::size_t i = 0; i < dash; ++i)
    if (rest[i] < '0' || rest[i] > '9') return false;
  for (std::size_t i = dash + 1; i < rest.size(); ++i) {
    const char c = rest[i];
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return false;
  }
  return true;
}

std::size_t remove_stale_temp_files(const std::filesystem::path& dir) noexcept {
  std::size_t removed = 0;
  try {
    std::error_code ec;
    std::filesystem::directory_iterator it(dir, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (!is_atomic_temp_name(name)) continue;
      const std::string path = it->path().string();
      const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
      if (fd < 0) continue;
      struct stat st {};
      // A lock we can take means no writer holds it: the writer finished or died.
      if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ::flock(fd, LOCK_EX | LOCK_NB) == 0) {
        const std::size_t at = name.rfind(kMarker) + std::strlen(kMarker);
        const long pid = std::strtol(name.c_str() + at, nullptr, 10);
        const long age = static_cast<long>(::time(nullptr) - st.st_mtime);
        // A live writer's temporary is unlocked for an instant after mkstemp: spare it.
        const bool stale = (pid != ::getpid() && !process_alive(pid)) || age > kStaleSeconds;
        struct stat now {};
        if (stale && ::lstat(path.c_str(), &now) == 0 && now.st_ino == st.st_ino && now.st_dev == st.st_dev &&
            ::unlink(path.c_str()) == 0)
          ++removed;
      }
      ::close(fd);
    }
  } catch (...) {
    // Cleaning up is best effort; it must never stop a write.
  }
  return removed;
}

AtomicFile::AtomicFile(std::filesystem::path target) : target_(std::move(target)) {
  const std::filesystem::path dir = directory_of(target_);
  // Replacing by rename would ignore the target's own permissions: refuse what the user
  // protected (mode bits too, since root passes access()), and directories.
  struct stat st {};
  if (::stat(target_.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) fail("it is a directory", EISDIR);
    if (S_ISREG(st.st_mode) && ((st.st_mode & 0222) == 0 || ::access(target_.c_str(), W_OK) != 0))
      fail("the file is read-only", EACCES);
  }
  remove_stale_temp_files(dir);
  std::string name = (dir / ("." + target_.filename().string() + kMarker + std::to_string(::getpid()) + "-XXXXXX")).string();
  fd_ = ::mkstemp(name.data());
  if (fd_ < 0) fail("cannot create a temporary file in its directory", errno);
  temp_ = name;
  ::flock(fd_, LOCK_EX);  // held until commit or discard; see remove_stale_temp_files
  // mkstemp makes 0600; the result should get the usual 0666 minus the umask.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd_, 0666 & ~mask);
}

AtomicFile::~AtomicFile() { discard(); }

void AtomicFile::discard() noexcept {
  if (fd_ >= 0) {
    ::unlink(temp_.c_str());  // before close: the lock keeps cleaners off until it is gone
    ::close(fd_);
    fd_ = -1;
  }
}

void AtomicFile::fail(const std::string& step, int error) {
  discard();
  throw std::runtime_error("cannot write " + target_.string() + ": " + step + " (" + std::strerror(error) + ")");
}

void AtomicFile::write(const void* data, std::size_t size) {
  if (fd_ < 0) throw std::logic_error("AtomicFile::write after commit");
  const char* p = static_cast<const char*>(data);
  const long stall = stall_milliseconds();
  const char* stall_at = stall > 0 ? p + size / 2 : nullptr;
  while (size > 0) {
    std::size_t chunk = size;
    if (stall_at && p < stall_at) chunk = std::size_t(stall_at - p);
    const ssize_t n = ::write(fd_, p, chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("writing failed", errno);
    }
    p += n;
    size -= std::size_t(n);
    if (stall_at && p == stall_at) {
      std::this_thread::sleep_for(std::chrono::milliseconds(stall));
      stall_at = nullptr;
    }
  }
}

void AtomicFile::commit() {
  if (fd_ < 0) throw std::logic_error("AtomicFile::commit twice");
  // fsync before rename: otherwise a power cut can leave the new name on an empty file.
  if (::fsync(fd_) != 0 && errno != EINVAL) fail("writing to disk failed", errno);
  if (std::rename(temp_.c_str(), target_.c_str()) != 0) fail("renaming the temporary file failed", errno);
  ::close(fd_);  // only now: the lock covered the temporary until it was renamed
  fd_ = -1;
}

void write_file_atomic(const std::filesystem::path& path, const void* data, std::size_t size) {
  AtomicFile file(path);
  file.write(data, size);
  file.commit();
}

}  // namespace app
