#include "export/video_module.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <system_error>

namespace app {
namespace {

std::filesystem::path executable_dir() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : exe.parent_path();
}

struct Loaded {
  OpenVideoBackend open = nullptr;
  std::string error;
};

Loaded load() {
  std::string tried;
  for (const std::string& path : video_module_candidates()) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      tried += "\n  " + path + ": not found";
      continue;
    }
    // Never unloaded: encoders may outlive any one caller, and FFmpeg keeps global state.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* why = dlerror();
      tried += "\n  " + path + ": " + (why ? why : "cannot be loaded");
      continue;
    }
    auto version = reinterpret_cast<int (*)()>(dlsym(handle, kVideoBackendVersionSymbol));
    auto open = reinterpret_cast<OpenVideoBackend>(dlsym(handle, kOpenVideoBackendSymbol));
    if (!version || !open || version() != kVideoBackendVersion) {
      tried += "\n  " + path + ": built for another pe-viz version";
      dlclose(handle);
      continue;
    }
    return {open, ""};
  }
  return {nullptr, "video export needs " + std::string(kVideoModuleFile) +
                       " (pe-viz's FFmpeg module, installed with pe-viz), and none could be loaded:" + tried};
}

}  // namespace

std::vector<std::string> video_module_candidates() {
  std::vector<std::string> paths;
  if (const char* env = std::getenv("PE_VIZ_VIDEO_MODULE"); env && *env) paths.emplace_back(env);
  const std::filesystem::path dir = executable_dir();
  if (!dir.empty()) {
    paths.push_back((dir / kVideoModuleFile).string());
    paths.push_back((dir.parent_path() / "lib" / "pe-viz" / "modules" / kVideoModuleFile).lexically_normal().string());
  }
  return paths;
}

OpenVideoBackend video_backend_entry() {
  static std::once_flag once;
  static Loaded loaded;
  std::call_once(once, [] { loaded = load(); });
  if (!loaded.open) throw VideoError(loaded.error);
  return loaded.open;
}

}  // namespace app
