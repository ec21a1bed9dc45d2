#include "pe/hub/hub_settings.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "pe/base/text.hpp"

namespace pe {

namespace fs = std::filesystem;

namespace {

// constants.py ENV_VARS_TRUE_VALUES.
bool is_true(const std::string& v) {
  const std::string u = ascii_lower(v);
  return u == "1" || u == "on" || u == "yes" || u == "true";
}

// _auth.py _clean_token: line breaks removed, spaces around stripped.
std::string clean_token(std::string t) {
  std::erase_if(t, [](char c) { return c == '\r' || c == '\n'; });
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.pop_back();
  std::size_t first = 0;
  while (first < t.size() && std::isspace(static_cast<unsigned char>(t[first]))) ++first;
  return t.substr(first);
}

fs::path cache_home() {
  const std::string xdg = env_value("XDG_CACHE_HOME");
  return xdg.empty() ? expand_user("~/.cache") : expand_user(xdg);
}

}  // namespace

fs::path hf_home() {
  const std::string v = env_value("HF_HOME");
  return v.empty() ? cache_home() / "huggingface" : expand_user(v);
}

HubSettings hub_settings_from_environment(const std::string& user_agent) {
  HubSettings s;
  if (const std::string e = env_value("HF_ENDPOINT"); !e.empty()) s.endpoint = e;
  while (s.endpoint.size() > 1 && s.endpoint.back() == '/') s.endpoint.pop_back();
  for (const char* name : {"HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"}) {
    if (const std::string t = clean_token(env_value(name)); !t.empty()) {
      s.token = t;
      s.token_source = name;
      break;
    }
  }
  if (s.token.empty()) {
    const std::string path_env = env_value("HF_TOKEN_PATH");
    const fs::path file = path_env.empty() ? hf_home() / "token" : expand_user(path_env);
    std::ifstream in(file);
    std::ostringstream text;
    if (in) text << in.rdbuf();
    if (const std::string t = clean_token(text.str()); !t.empty()) {
      s.token = t;
      s.token_source = file.string();
    }
  }
  s.offline = is_true(env_value("HF_HUB_OFFLINE")) || is_true(env_value("TRANSFORMERS_OFFLINE"));
  s.hf_cache = hf_hub_cache_dir();
  s.range_cache = cache_home() / "pe-viz" / "hub";
  s.user_agent = user_agent;
  return s;
}

}  // namespace pe
