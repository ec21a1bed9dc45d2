#pragma once
// How pe-viz talks to the Hugging Face Hub, as huggingface_hub does (constants.py,
// utils/_auth.py): the endpoint, the token, offline mode, the caches, the user agent.
#include "pe/hub/module_guard.hpp"
#include <filesystem>
#include <functional>
#include <string>

#include "pe/models/hf_cache.hpp"

namespace pe {

inline constexpr const char* kHubDefaultEndpoint = "https://huggingface.co";

struct HubSettings {
  std::string endpoint = kHubDefaultEndpoint;  // no trailing slash
  std::string token;         // sent as "Authorization: Bearer <token>" ("" none)
  std::string token_source;  // for messages: "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", the token file's path, "the page"
  // How the reader gives a token, in messages: the desktop's environment, a page's token field.
  std::string token_advice = "give it as HF_TOKEN (or log in with `hf auth login`)";
  bool offline = false;      // HF_HUB_OFFLINE: no HTTP at all, the caches only
  // Whole files (config.json, the index) are kept in the Hugging Face cache's layout, where
  // transformers and huggingface_hub find them too ("" path: not kept).
  HfCacheDir hf_cache;
  // Ranges of large files (headers, q/k rows), by commit, file and range ("": not kept).
  std::filesystem::path range_cache;
  std::string user_agent = "pe-viz";
  int parallel = 6;     // transfers at once
  int max_retries = 5;  // per request, for 429, 5xx and cut connections (huggingface_hub http_backoff)
  double retry_wait_scale = 1.0;  // every wait before a retry is multiplied by this (tests shorten them)
  // Each request and answer as a line with its time, for finding where a slow read waits
  // (the desktop sets it from PE_VIZ_HUB_TRACE=1). Empty: none.
  std::function<void(const std::string&)> trace;
};

// From the environment, as huggingface_hub reads it:
//   HF_ENDPOINT (default https://huggingface.co, trailing "/" dropped);
//   HF_TOKEN, else HUGGING_FACE_HUB_TOKEN, else the file HF_TOKEN_PATH (default $HF_HOME/token;
//   HF_HOME defaults to $XDG_CACHE_HOME/huggingface or ~/.cache/huggingface), the token's
//   line breaks and surrounding spaces removed (_auth.py _clean_token);
//   HF_HUB_OFFLINE (or TRANSFORMERS_OFFLINE) one of 1, ON, YES, TRUE (any case);
//   the hub cache as pe::hf_hub_cache_dir() finds it;
// and pe-viz's own range cache: $XDG_CACHE_HOME/pe-viz/hub, else ~/.cache/pe-viz/hub.
HubSettings hub_settings_from_environment(const std::string& user_agent);

// $HF_HOME, or its default.
std::filesystem::path hf_home();

}  // namespace pe
