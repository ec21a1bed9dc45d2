#include "pe/hub/hub_caches.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

#include "pe/hub/hub_answer.hpp"
#include "pe/weights/frequency_usage.hpp"

namespace pe {

namespace fs = std::filesystem;

namespace {

std::string unique_suffix() {
  static std::atomic<unsigned> counter{0};
  static const unsigned seed = std::random_device{}();
  char buf[32];
  std::snprintf(buf, sizeof buf, ".%08x%04x.incomplete", seed, (counter++) & 0xffffu);
  return buf;
}

std::string read_small(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  if (in) s << in.rdbuf();
  return s.str();
}

fs::path repo_dir(const HfCacheDir& cache, const std::string& repo_id) { return cache.path / repo_folder_name(repo_id); }

// The parts of a repository path as folders (weight_map names and config paths are checked
// before: no "..", not absolute).
fs::path relative(const std::string& path) { return fs::path(path).relative_path(); }

}  // namespace

void write_file_atomically(const fs::path& path, std::span<const std::uint8_t> bytes) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) throw HubError(HubErrorKind::Cache, "cannot create " + path.parent_path().string() + ": " + ec.message());
  const fs::path tmp = path.string() + unique_suffix();
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw HubError(HubErrorKind::Cache, "cannot write " + tmp.string());
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      fs::remove(tmp, ec);
      throw HubError(HubErrorKind::Cache, "cannot write " + tmp.string() + " (disk full?)");
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw HubError(HubErrorKind::Cache, "cannot move " + tmp.string() + " to " + path.string() + ": " + ec.message());
  }
}

std::optional<std::string> hf_cached_commit(const HfCacheDir& cache, const std::string& repo_id, const std::string& revision) {
  if (cache.path.empty()) return std::nullopt;
  const fs::path repo = repo_dir(cache, repo_id);
  std::error_code ec;
  if (fs::is_regular_file(repo / "refs" / revision, ec)) {
    std::string c = read_small(repo / "refs" / revision);
    while (!c.empty() && std::isspace(static_cast<unsigned char>(c.back()))) c.pop_back();
    if (valid_commit_name(c)) return c;
    return std::nullopt;
  }
  if (valid_commit_name(revision) && fs::is_directory(repo / "snapshots" / revision, ec)) return revision;
  return std::nullopt;
}

std::optional<fs::path> hf_cached_file(const HfCacheDir& cache, const std::string& repo_id, const std::string& commit,
                                       const std::string& path) {
  if (cache.path.empty()) return std::nullopt;
  const fs::path p = repo_dir(cache, repo_id) / "snapshots" / commit / relative(path);
  std::error_code ec;
  if (fs::is_regular_file(p, ec)) return p;  // follows the link: a broken one is not there
  return std::nullopt;
}

bool hf_cached_as_missing(const HfCacheDir& cache, const std::string& repo_id, const std::string& commit, const std::string& path) {
  if (cache.path.empty()) return false;
  std::error_code ec;
  return fs::is_regular_file(repo_dir(cache, repo_id) / ".no_exist" / commit / relative(path), ec);
}

namespace {

void store_ref(const fs::path& repo, const std::string& revision, const std::string& commit) {
  if (revision == commit) return;
  const fs::path ref = repo / "refs" / relative(revision);
  if (read_small(ref) == commit) return;
  write_file_atomically(ref, std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(commit.data()), commit.size()));
}

}  // namespace

fs::path hf_cache_store(const HfCacheDir& cache, const std::string& repo_id, const std::string& revision, const std::string& commit,
                        const std::string& path, const std::string& etag, std::span<const std::uint8_t> bytes) {
  const fs::path repo = repo_dir(cache, repo_id);
  const fs::path blob = repo / "blobs" / etag;
  std::error_code ec;
  if (!fs::is_regular_file(blob, ec) || fs::file_size(blob, ec) != bytes.size()) write_file_atomically(blob, bytes);
  const fs::path link = repo / "snapshots" / commit / relative(path);
  fs::create_directories(link.parent_path(), ec);
  if (ec) throw HubError(HubErrorKind::Cache, "cannot create " + link.parent_path().string() + ": " + ec.message());
  // A relative link, as huggingface_hub makes it: the cache folder may move.
  const fs::path target = fs::relative(blob, link.parent_path(), ec);
  const fs::path tmp = link.string() + unique_suffix();
  fs::create_symlink(ec ? blob : target, tmp, ec);
  if (!ec) fs::rename(tmp, link, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw HubError(HubErrorKind::Cache, "cannot link " + link.string() + " to " + blob.string() + ": " + ec.message());
  }
  store_ref(repo, revision, commit);
  return link;
}

void hf_cache_store_missing(const HfCacheDir& cache, const std::string& repo_id, const std::string& revision, const std::string& commit,
                            const std::string& path) {
  const fs::path repo = repo_dir(cache, repo_id);
  write_file_atomically(repo / ".no_exist" / commit / relative(path), {});
  store_ref(repo, revision, commit);
}

RangeCache::RangeCache(fs::path root) : root_(std::move(root)) {}

fs::path RangeCache::folder(const std::string& repo_id, const std::string& commit, const std::string& path) const {
  return root_ / repo_folder_name(repo_id) / commit / relative(path);
}

std::optional<std::uint64_t> RangeCache::size(const std::string& repo_id, const std::string& commit, const std::string& path) const {
  if (!enabled()) return std::nullopt;
  const std::string text = read_small(folder(repo_id, commit, path) / "size");
  if (text.empty() || text.size() > 20 || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return std::stoull(text);
}

void RangeCache::store_size(const std::string& repo_id, const std::string& commit, const std::string& path, std::uint64_t size) {
  if (!enabled()) return;
  const std::string text = std::to_string(size);
  try {
    write_file_atomically(folder(repo_id, commit, path) / "size",
                          std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  } catch (const HubError&) {
    // Not cached: the next run asks again.
  }
}

std::optional<std::vector<std::uint8_t>> RangeCache::read(const std::string& repo_id, const std::string& commit,
                                                          const std::string& path, ByteRange range) const {
  if (!enabled() || range.length == 0) return std::nullopt;
  // The pieces: files named FIRST-END.
  std::map<std::uint64_t, std::pair<std::uint64_t, fs::path>> pieces;
  std::error_code ec;
  for (fs::directory_iterator it(folder(repo_id, commit, path), ec), end; !ec && it != end; it.increment(ec)) {
    const std::string n = it->path().filename().string();
    const auto dash = n.find('-');
    if (dash == std::string::npos || n.find('.') != std::string::npos) continue;
    try {
      const std::uint64_t first = std::stoull(n.substr(0, dash)), last = std::stoull(n.substr(dash + 1));
      std::error_code ec2;
      if (last > first && fs::file_size(it->path(), ec2) == last - first && !ec2) pieces[first] = {last, it->path()};
    } catch (const std::exception&) {
    }
  }
  std::vector<std::uint8_t> out(static_cast<std::size_t>(range.length));
  std::uint64_t at = range.offset;
  while (at < range.end()) {
    // The piece reaching furthest among those that hold `at`.
    const std::pair<std::uint64_t, fs::path>* best = nullptr;
    std::uint64_t best_first = 0;
    for (auto p = pieces.begin(); p != pieces.end() && p->first <= at; ++p)
      if (p->second.first > at && (!best || p->second.first > best->first)) best = &p->second, best_first = p->first;
    if (!best) return std::nullopt;
    const std::uint64_t stop = std::min(range.end(), best->first);
    std::ifstream in(best->second, std::ios::binary);
    in.seekg(static_cast<std::streamoff>(at - best_first));
    in.read(reinterpret_cast<char*>(out.data() + (at - range.offset)), static_cast<std::streamsize>(stop - at));
    if (!in) return std::nullopt;
    at = stop;
  }
  return out;
}

struct RangeCache::Writer {
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<std::pair<fs::path, std::shared_ptr<const std::vector<std::uint8_t>>>> queue;
  bool busy = false, stop = false;
  std::thread thread;

  Writer() : thread([this] { run(); }) {}
  ~Writer() {
    {
      std::lock_guard lock(mutex);
      stop = true;
    }
    changed.notify_all();
    thread.join();
  }
  void run() {
    std::unique_lock lock(mutex);
    for (;;) {
      changed.wait(lock, [this] { return stop || !queue.empty(); });
      if (queue.empty()) return;  // stop, and every write done
      auto [path, bytes] = std::move(queue.front());
      queue.pop_front();
      busy = true;
      lock.unlock();
      try {
        write_file_atomically(path, *bytes);
      } catch (const HubError&) {
        // Not kept: the next run asks again.
      }
      lock.lock();
      busy = false;
      changed.notify_all();
    }
  }
  void flush() {
    std::unique_lock lock(mutex);
    changed.wait(lock, [this] { return queue.empty() && !busy; });
  }
};

RangeCache::~RangeCache() = default;

void RangeCache::store(const std::string& repo_id, const std::string& commit, const std::string& path, std::uint64_t offset,
                       std::shared_ptr<const std::vector<std::uint8_t>> bytes) {
  if (!enabled() || !bytes || bytes->empty()) return;
  const fs::path file = folder(repo_id, commit, path) / (std::to_string(offset) + "-" + std::to_string(offset + bytes->size()));
  if (!weights_threads_available()) {
    try {
      write_file_atomically(file, *bytes);
    } catch (const HubError&) {
    }
    return;
  }
  if (!writer_) writer_ = std::make_unique<Writer>();
  {
    std::lock_guard lock(writer_->mutex);
    writer_->queue.emplace_back(file, std::move(bytes));
  }
  writer_->changed.notify_all();
}

void RangeCache::flush() {
  if (writer_) writer_->flush();
}

}  // namespace pe
