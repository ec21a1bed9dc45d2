#include "pe/hub/http_transport.hpp"

#include "pe/base/text.hpp"

namespace pe {

std::string HttpResponse::header(std::string_view name) const {
  const std::string want = ascii_lower(std::string(name));
  for (const HttpHeader& h : headers)
    if (ascii_lower(h.name) == want) return h.value;
  return {};
}

}  // namespace pe
