#include "platform/web/page_files.hpp"

#include <emscripten.h>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <map>

#include "pe/weights/weights_error.hpp"

// clang-format off
EM_JS(double, pe_js_held_size, (const char* name), {
  var f = Module.peViz.held[UTF8ToString(name)];
  return f ? f.size : -1;
});
EM_JS(int, pe_js_slice_open, (), { return Module.peViz.slices.open(); });
EM_JS(void, pe_js_slice_close, (int queue), { Module.peViz.slices.close(queue); });
EM_JS(void, pe_js_slice_start, (int queue, double id, const char* name, double first, double end), {
  Module.peViz.slices.start(queue, id, UTF8ToString(name), first, end);
});
EM_JS(double, pe_js_slice_take, (int queue, int* size), {
  /* The next finished slice becomes the current one: its id (0: none) and size (-1: failed). */
  var s = Module.peViz.slices.take(queue);
  if (!s) return 0;
  HEAP32[size >> 2] = s.bytes ? s.bytes.length : -1;
  return s.id;
});
EM_JS(char*, pe_js_slice_error, (), { return allocateUTF8(Module.peViz.slices.current.error || ""); });
EM_JS(void, pe_js_slice_copy, (unsigned char* out), {
  var s = Module.peViz.slices.current;
  if (s.bytes && out) HEAPU8.set(s.bytes, out);
  Module.peViz.slices.current = null;
});
// clang-format on

namespace app {

namespace {

std::string held_name(const std::string& name) {
  const std::string prefix = "/files/";  // the page's working folder (index.html)
  std::string n = name.rfind(prefix, 0) == 0 ? name.substr(prefix.size()) : name;
  if (n.rfind("./", 0) == 0) n = n.substr(2);
  return n;
}

// Slices of a few MiB: a batch of q/k rows arrives in pieces the page copies without a pause.
constexpr std::uint64_t kSliceBytes = std::uint64_t{8} << 20;
constexpr std::size_t kParallel = 4;

class HeldFileLoader final : public pe::RangeLoader {
 public:
  HeldFileLoader() : queue_(pe_js_slice_open()) {}
  ~HeldFileLoader() override { pe_js_slice_close(queue_); }

  void load(const std::shared_ptr<const pe::RangedFile>& file, const std::vector<pe::ByteRange>& ranges) override {
    const std::uint64_t size = file->size();
    for (const pe::ByteRange& asked : ranges) {
      pe::ByteRange r = asked;
      if (r.offset >= size) continue;
      r.length = std::min(r.length, size - r.offset);
      for (const pe::ByteRange& m : file->missing(r))
        for (std::uint64_t at = m.offset; at < m.end(); at += kSliceBytes) {
          const pe::ByteRange piece{at, std::min(kSliceBytes, m.end() - at)};
          // Already asked for (another batch's plan overlapping): not twice.
          if (std::any_of(queued_.begin(), queued_.end(), [&](const Slice& s) { return s.file == file && s.range == piece; }) ||
              std::any_of(running_.begin(), running_.end(), [&](const auto& e) { return e.second.file == file && e.second.range == piece; }))
            continue;
          queued_.push_back({file, piece});
          pending_ += piece.length;
        }
    }
    start_some();
  }

  bool pump(int) override {
    for (;;) {
      int size = 0;
      const double id = pe_js_slice_take(queue_, &size);
      if (id == 0) break;
      const auto it = running_.find(id);
      if (it == running_.end()) {
        pe_js_slice_copy(nullptr);
        continue;
      }
      const Slice s = it->second;
      running_.erase(it);
      pending_ -= s.range.length;
      if (size < 0) {
        std::string why = pe_js_slice_error_text();
        pe_js_slice_copy(nullptr);
        cancel();
        throw pe::WeightsError(s.file->name(), "", "bytes " + std::to_string(s.range.offset) + "-" + std::to_string(s.range.end() - 1) +
                                                       " could not be read from the page's file: " + why);
      }
      std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
      pe_js_slice_copy(bytes.data());
      moved_ += bytes.size();
      s.file->add(s.range.offset, std::move(bytes));
    }
    start_some();
    return queued_.empty() && running_.empty();
  }

  void cancel() override {
    pe_js_slice_close(queue_);
    queue_ = pe_js_slice_open();
    queued_.clear();
    running_.clear();
    pending_ = 0;
  }
  std::uint64_t bytes_moved() const override { return moved_; }
  std::uint64_t bytes_pending() const override { return pending_; }

 private:
  struct Slice {
    std::shared_ptr<const pe::RangedFile> file;
    pe::ByteRange range;
  };
  static std::string pe_js_slice_error_text() {
    char* p = pe_js_slice_error();
    std::string s = p ? p : "";
    std::free(p);
    return s;
  }
  void start_some() {
    while (running_.size() < kParallel && !queued_.empty()) {
      Slice s = std::move(queued_.front());
      queued_.pop_front();
      const double id = next_++;
      pe_js_slice_start(queue_, id, s.file->locator().c_str(), double(s.range.offset), double(s.range.end()));
      running_.emplace(id, std::move(s));
    }
  }

  int queue_;
  double next_ = 1;
  std::deque<Slice> queued_;
  std::map<double, Slice> running_;
  std::uint64_t moved_ = 0, pending_ = 0;
};

}  // namespace

std::shared_ptr<pe::RangedFile> held_page_file(const std::string& name) {
  const std::string n = held_name(name);
  const double size = pe_js_held_size(n.c_str());
  if (size < 0) return nullptr;
  return pe::RangedFile::make(n, n, std::uint64_t(size));
}

std::unique_ptr<pe::RangeLoader> make_held_file_loader() { return std::make_unique<HeldFileLoader>(); }

}  // namespace app
