#include "pe/hub/hub_url.hpp"

#include <cctype>

#include "pe/base/text.hpp"

namespace pe {

std::string percent_encode(std::string_view text, std::string_view safe) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '_' || c == '.' || c == '-' || c == '~' || safe.find(c) != std::string_view::npos) {
      out += c;
    } else {
      out += '%';
      out += hex[u >> 4];
      out += hex[u & 15];
    }
  }
  return out;
}

std::string hub_file_url(const std::string& endpoint, const std::string& repo_id, const std::string& revision,
                         const std::string& path) {
  return endpoint + "/" + repo_id + "/resolve/" + percent_encode(revision, "") + "/" + percent_encode(path, "/");
}

std::string UrlParts::origin() const { return scheme + "://" + host + (port.empty() ? "" : ":" + port); }

std::optional<UrlParts> parse_url(std::string_view url) {
  const auto colon = url.find("://");
  if (colon == std::string_view::npos) return std::nullopt;
  UrlParts p;
  p.scheme = ascii_lower(std::string(url.substr(0, colon)));
  if (p.scheme != "http" && p.scheme != "https") return std::nullopt;
  const std::string_view rest = url.substr(colon + 3);
  const auto slash = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, slash);
  if (const auto at = authority.rfind('@'); at != std::string_view::npos) authority = authority.substr(at + 1);
  // [v6]:port, host:port, host
  std::string_view host = authority, port;
  if (!authority.empty() && authority.front() == '[') {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = authority.substr(0, close + 1);
    if (close + 1 < authority.size() && authority[close + 1] == ':') port = authority.substr(close + 2);
  } else if (const auto c = authority.rfind(':'); c != std::string_view::npos) {
    host = authority.substr(0, c);
    port = authority.substr(c + 1);
  }
  if (host.empty()) return std::nullopt;
  for (const char ch : port)
    if (!std::isdigit(static_cast<unsigned char>(ch))) return std::nullopt;
  p.host = ascii_lower(std::string(host));
  p.port = std::string(port);
  // The default port is the same host as no port.
  if ((p.scheme == "http" && p.port == "80") || (p.scheme == "https" && p.port == "443")) p.port.clear();
  p.path = slash == std::string_view::npos ? "/" : std::string(rest.substr(slash));
  if (p.path.front() != '/') p.path = "/" + p.path;
  return p;
}

std::optional<std::string> resolve_location(const std::string& base, const std::string& location) {
  if (location.empty()) return std::nullopt;
  if (location.find("://") != std::string::npos) {
    if (!parse_url(location)) return std::nullopt;
    return location;
  }
  const auto b = parse_url(base);
  if (!b) return std::nullopt;
  std::string out;
  if (location.rfind("//", 0) == 0) {
    out = b->scheme + ":" + location;  // a network-path reference
  } else if (location.front() == '/') {
    out = b->origin() + location;
  } else {
    // A relative path: beside the base's last segment (its query dropped).
    std::string dir = b->path.substr(0, b->path.find_first_of("?#"));
    dir = dir.substr(0, dir.rfind('/') + 1);
    out = b->origin() + dir + location;
  }
  if (!parse_url(out)) return std::nullopt;
  return out;
}

}  // namespace pe
