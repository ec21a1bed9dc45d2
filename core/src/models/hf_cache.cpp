// Offline lookup in the Hugging Face hub cache. Locations and layout follow huggingface_hub:
// constants.py (HF_HUB_CACHE, HUGGINGFACE_HUB_CACHE, HF_HOME, XDG_CACHE_HOME defaults),
// file_download.py `repo_folder_name` and `try_to_load_from_cache` (refs/<revision> holds
// the commit; snapshots/<commit>/<file>), utils/_validators.py `validate_repo_id`.
#include "pe/models/hf_cache.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>

#include "pe/base/text.hpp"

namespace pe {

namespace fs = std::filesystem;

std::string env_value(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

fs::path expand_user(const std::string& p) {
  if (p == "~" || p.rfind("~/", 0) == 0) {
    const std::string home = env_value("HOME");
    return fs::path(home.empty() ? std::string(".") : home) / p.substr(p.size() > 1 ? 2 : 1);
  }
  return fs::path(p);
}

namespace {

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// One part of a repo id: [\w\-.]{1,96}, starting and ending with a word character.
bool valid_part(const std::string& s) {
  if (s.empty() || s.size() > 96) return false;
  if (!is_word_char(s.front()) || !is_word_char(s.back())) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return is_word_char(c) || c == '-' || c == '.'; });
}

bool valid_revision(const std::string& r) {
  if (r.empty() || r.size() > 255 || r.front() == '/' || r.back() == '/') return false;
  if (r.find("..") != std::string::npos || r.find("//") != std::string::npos) return false;
  return std::all_of(r.begin(), r.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u > 0x20 && u < 0x7f && c != '\\';
  });
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string name_part(const std::string& repo_id) {
  const auto slash = repo_id.find('/');
  return slash == std::string::npos ? repo_id : repo_id.substr(slash + 1);
}

// Sorted names of the entries of `dir` (only directories when dirs_only); none if unreadable.
std::vector<std::string> entry_names(const fs::path& dir, bool dirs_only = false) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code ec2;
    if (!dirs_only || it->is_directory(ec2)) out.push_back(it->path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> directory_names(const fs::path& dir) { return entry_names(dir, true); }

std::string join(const std::vector<std::string>& v, std::size_t limit = 12) {
  std::string s;
  for (std::size_t k = 0; k < v.size() && k < limit; ++k) s += (k ? ", " : "") + v[k];
  if (v.size() > limit) s += ", … (" + std::to_string(v.size()) + " in all)";
  return s;
}

std::string cache_text(const HfCacheDir& cache) {
  std::error_code ec;
  const bool exists = fs::is_directory(cache.path, ec);
  return cache.path.string() + " (from " + cache.origin + (exists ? ")" : ", which does not exist)");
}

[[noreturn]] void not_cached(const std::string& model, const fs::path& tried, const HfCacheDir& cache) {
  const std::vector<std::string> all = list_cached_models(cache.path);
  std::string msg = "\"" + model + "\" is not in the Hugging Face cache (looked up offline): tried " + tried.string() +
                    "; cache " + cache_text(cache) + ". ";
  if (all.empty()) msg += "The cache holds no models.";
  else msg += "Cached models, closest first: " + join(closest_names(model, all, 10), 10) + ".";
  msg += " Download its config.json (e.g. `hf download " + model + " config.json`) or pass --config PATH.";
  throw HfCacheError(msg);
}

std::string read_ref(const fs::path& file) {
  std::ifstream in(file);
  std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.erase(s.begin());
  return s;
}

}  // namespace

HfCacheDir hf_hub_cache_dir() {
  if (const std::string v = env_value("HF_HUB_CACHE"); !v.empty()) return {expand_user(v), "HF_HUB_CACHE"};
  if (const std::string v = env_value("HUGGINGFACE_HUB_CACHE"); !v.empty()) return {expand_user(v), "HUGGINGFACE_HUB_CACHE"};
  if (const std::string v = env_value("HF_HOME"); !v.empty()) return {expand_user(v) / "hub", "HF_HOME/hub"};
  if (const std::string v = env_value("XDG_CACHE_HOME"); !v.empty())
    return {expand_user(v) / "huggingface" / "hub", "XDG_CACHE_HOME/huggingface/hub"};
  return {expand_user("~/.cache/huggingface/hub"), "~/.cache/huggingface/hub"};
}

HfModelRef parse_model_ref(const std::string& text) {
  HfModelRef ref;
  std::string id = text;
  if (const auto at = text.find('@'); at != std::string::npos) {
    id = text.substr(0, at);
    ref.revision = text.substr(at + 1);
    ref.explicit_revision = true;
    if (!valid_revision(ref.revision))
      throw HfCacheError("\"" + text + "\": revision \"" + ref.revision +
                         "\" is not a branch, tag or commit name (no spaces, \"..\" or leading \"/\")");
  }
  const auto slash = id.find('/');
  const bool two_parts = slash != std::string::npos;
  const bool ok = std::count(id.begin(), id.end(), '/') <= 1 &&
                  (two_parts ? valid_part(id.substr(0, slash)) && valid_part(id.substr(slash + 1)) : valid_part(id)) &&
                  id.find("--") == std::string::npos && id.find("..") == std::string::npos &&
                  !(id.size() >= 4 && id.compare(id.size() - 4, 4, ".git") == 0);
  if (!ok)
    throw HfCacheError("\"" + text +
                       "\" is not a model name: expected ORG/NAME or ORG/NAME@REVISION (e.g. meta-llama/Llama-3.1-8B); names use "
                       "letters, digits, '-', '_' and '.', do not start or end with '-' or '.', and contain no \"--\" or \"..\"");
  ref.repo_id = id;
  return ref;
}

std::string repo_folder_name(const std::string& repo_id) {
  std::string out = "models";
  std::size_t start = 0;
  while (true) {
    const auto slash = repo_id.find('/', start);
    out += "--" + repo_id.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return out;
}

std::vector<std::string> list_cached_models(const fs::path& cache_dir) {
  std::vector<std::string> out;
  for (const std::string& dir : directory_names(cache_dir)) {
    if (dir.rfind("models--", 0) != 0) continue;
    std::string id;
    std::size_t start = 8;
    while (true) {
      const auto sep = dir.find("--", start);
      id += (id.empty() ? "" : "/") + dir.substr(start, sep == std::string::npos ? std::string::npos : sep - start);
      if (sep == std::string::npos) break;
      start = sep + 2;
    }
    if (!id.empty()) out.push_back(id);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> list_cached_models() { return list_cached_models(hf_hub_cache_dir().path); }

std::vector<std::string> closest_names(const std::string& query, std::vector<std::string> names, std::size_t limit) {
  const std::string q = ascii_lower(query), qn = ascii_lower(name_part(query));
  struct Scored {
    bool contains;
    std::size_t distance;
    std::string name;
  };
  std::vector<Scored> scored;
  for (std::string& n : names) {
    const std::string l = ascii_lower(n);
    const bool contains = !qn.empty() && l.find(qn) != std::string::npos;
    const std::size_t d = std::min(edit_distance(q, l), edit_distance(qn, ascii_lower(name_part(n))));
    scored.push_back({contains, d, std::move(n)});
  }
  std::sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) {
    if (a.contains != b.contains) return a.contains;
    if (a.distance != b.distance) return a.distance < b.distance;
    return a.name < b.name;
  });
  std::vector<std::string> out;
  for (std::size_t k = 0; k < scored.size() && k < limit; ++k) out.push_back(std::move(scored[k].name));
  return out;
}

CachedModel resolve_cached_model(const std::string& model, const HfCacheDir& cache) {
  const HfModelRef ref = parse_model_ref(model);
  CachedModel out;
  out.repo_id = ref.repo_id;
  out.revision = ref.revision;
  const fs::path repo = cache.path / repo_folder_name(ref.repo_id);
  std::error_code ec;
  if (!fs::is_directory(repo, ec)) not_cached(ref.repo_id, repo, cache);

  const fs::path refs = repo / "refs", snapshots = repo / "snapshots";
  const fs::path ref_file = refs / ref.revision;
  const std::vector<std::string> snapshot_names = directory_names(snapshots);
  if (fs::is_regular_file(ref_file, ec)) {
    out.commit = read_ref(ref_file);
    if (!valid_revision(out.commit) || out.commit.find('/') != std::string::npos)
      throw HfCacheError(ref_file.string() + " does not hold a commit name (got \"" + out.commit.substr(0, 80) + "\")");
    if (!fs::is_directory(snapshots / out.commit, ec))
      throw HfCacheError("\"" + model + "\": " + ref_file.string() + " names commit " + out.commit + " but " +
                         (snapshots / out.commit).string() + " is missing (snapshots present: " +
                         (snapshot_names.empty() ? std::string("none") : join(snapshot_names)) + ")");
    out.diagnostics.push_back({Severity::Info, "model", "revision " + ref.revision + " → commit " + out.commit + " (refs/" + ref.revision + ")"});
  } else if (fs::is_directory(snapshots / ref.revision, ec)) {
    out.commit = ref.revision;  // a commit hash given directly, as try_to_load_from_cache accepts
  } else if (!ref.explicit_revision && snapshot_names.size() == 1) {
    out.commit = snapshot_names.front();
    out.diagnostics.push_back({Severity::Warning, "model",
                               "refs/main is missing in " + repo.string() + "; used the only snapshot, " + out.commit});
  } else {
    const std::vector<std::string> ref_names = entry_names(refs);
    std::string msg = "\"" + model + "\": revision \"" + ref.revision + "\" is not cached: tried " + ref_file.string() + " and " +
                      (snapshots / ref.revision).string() + ". ";
    msg += "refs: " + (ref_names.empty() ? std::string("none") : join(ref_names)) +
           "; snapshots: " + (snapshot_names.empty() ? std::string("none") : join(snapshot_names)) + ".";
    if (snapshot_names.size() > 1 && !ref.explicit_revision) msg += " Choose one with " + ref.repo_id + "@COMMIT.";
    throw HfCacheError(msg);
  }

  out.snapshot_dir = snapshots / out.commit;
  out.config_path = out.snapshot_dir / "config.json";
  if (!fs::is_regular_file(out.config_path, ec)) {
    std::string msg = "\"" + model + "\": " + out.config_path.string();
    msg += fs::is_symlink(fs::symlink_status(out.config_path, ec)) ? " is a broken link (its blob was not downloaded)"
                                                                    : " does not exist";
    std::vector<std::string> ggufs;
    for (fs::directory_iterator it(out.snapshot_dir, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string n = it->path().filename().string();
      if (n.size() > 5 && ascii_lower(n.substr(n.size() - 5)) == ".gguf") ggufs.push_back(it->path().string());
    }
    std::sort(ggufs.begin(), ggufs.end());
    if (!ggufs.empty()) msg += "; the snapshot holds GGUF files — open one with --gguf: " + join(ggufs, 4);
    throw HfCacheError(msg);
  }
  return out;
}

CachedModel resolve_cached_model(const std::string& model) { return resolve_cached_model(model, hf_hub_cache_dir()); }

LoadedConfig load_cached_model_config(const std::string& model, const HfCacheDir& cache) {
  CachedModel m = resolve_cached_model(model, cache);
  LoadedConfig out;
  try {
    LoadedConfig read = load_hf_config_diagnosed(m.config_path);
    out.config = std::move(read.config);
    out.encoding = std::move(read.encoding);
  } catch (const ConfigError& e) {
    // Name the file: the cache path says which model and snapshot.
    std::string what = e.what();
    if (!e.key().empty() && what.rfind(e.key() + ": ", 0) == 0) what = what.substr(e.key().size() + 2);
    throw ConfigError(e.key(), m.config_path.string() + ": " + what);
  }
  out.config.name = m.repo_id;
  if (out.config.title.empty()) out.config.title = m.repo_id;
  out.config.source = "Hugging Face cache: " + m.repo_id + " at " + m.commit + " (" + m.config_path.string() + ")";
  out.diagnostics = std::move(m.diagnostics);
  return out;
}

LoadedConfig load_cached_model_config(const std::string& model) { return load_cached_model_config(model, hf_hub_cache_dir()); }

}  // namespace pe
