#pragma once
// Models in the local Hugging Face hub cache, offline. Layout and locations as
// huggingface_hub writes them (constants.py HF_HUB_CACHE / HF_HOME; file_download.py
// `repo_folder_name`, `try_to_load_from_cache`):
//   <cache>/models--ORG--NAME/refs/main            the commit the branch points to
//   <cache>/models--ORG--NAME/snapshots/<commit>/config.json
#include "pe/models/module_guard.hpp"
#include <filesystem>
#include <string>
#include <vector>

#include "pe/models/config.hpp"
#include "pe/models/diagnostics.hpp"

namespace pe {

// A model missing from the cache, a bad model name or revision. key() is "model"; the
// message lists the paths tried and the cached models closest to the name.
class HfCacheError : public ConfigError {
 public:
  explicit HfCacheError(std::string message) : ConfigError("model", std::move(message)) {}
};

struct HfCacheDir {
  std::filesystem::path path;
  std::string origin;  // how it was found: "HF_HUB_CACHE", "HF_HOME/hub", "~/.cache/huggingface/hub", ...
};

// An environment variable's value ("" when unset), and os.path.expanduser for the forms
// huggingface_hub's paths use ("~" and "~/..."): shared by the cache lookup and pe/hub.
std::string env_value(const char* name);
std::filesystem::path expand_user(const std::string& path);

// The hub cache directory, as huggingface_hub finds it: $HF_HUB_CACHE, else the legacy
// $HUGGINGFACE_HUB_CACHE, else $HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub, else
// ~/.cache/huggingface/hub ("~" expanded in each). The directory need not exist.
HfCacheDir hf_hub_cache_dir();

// "ORG/NAME" or "ORG/NAME@REVISION" (a branch, tag or commit; default "main").
struct HfModelRef {
  std::string repo_id;
  std::string revision = "main";
  bool explicit_revision = false;
};
// Checks the name as huggingface_hub's validate_repo_id does (letters, digits, "-", "_",
// "."; at most one "/"; no "--" or ".."; at most 96 characters per part). Throws HfCacheError.
HfModelRef parse_model_ref(const std::string& text);

// The cache folder of a repository: "models--ORG--NAME" (file_download.py repo_folder_name).
std::string repo_folder_name(const std::string& repo_id);

struct CachedModel {
  std::string repo_id;                  // "ORG/NAME"
  std::string revision;                 // as asked ("main", a tag or a commit)
  std::string commit;                   // the snapshot used
  std::filesystem::path snapshot_dir;
  std::filesystem::path config_path;    // snapshot_dir / "config.json"
  std::vector<Diagnostic> diagnostics;  // e.g. "refs/main missing: the only snapshot used"
};

// Finds a model's config.json in `cache_dir` without any network access. refs/REVISION
// names the commit; a revision that is itself a snapshot (a commit hash) is used directly;
// with no refs/main and exactly one snapshot, that snapshot is used (and a Diagnostic says
// so). Throws HfCacheError listing what was tried and the cached models closest to the name.
CachedModel resolve_cached_model(const std::string& model, const HfCacheDir& cache);
CachedModel resolve_cached_model(const std::string& model);  // in hf_hub_cache_dir()

// Every model in the cache ("ORG/NAME", sorted), for completion in the GUI.
std::vector<std::string> list_cached_models(const std::filesystem::path& cache_dir);
std::vector<std::string> list_cached_models();

// `names` ordered by closeness to `query` (case-insensitive: names containing it first,
// then by edit distance), at most `limit`.
std::vector<std::string> closest_names(const std::string& query, std::vector<std::string> names, std::size_t limit = 8);

// Resolves the model and parses its config.json with pe::load_hf_config_diagnosed. The config
// is named "ORG/NAME" and its source says which snapshot; the diagnostics are the cache's;
// `encoding` is the model's family (a model that does not rotate is returned, not refused).
// Throws HfCacheError or ConfigError (naming the config.json path and key).
LoadedConfig load_cached_model_config(const std::string& model, const HfCacheDir& cache);
LoadedConfig load_cached_model_config(const std::string& model);

}  // namespace pe
