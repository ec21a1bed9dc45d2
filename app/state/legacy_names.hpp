#pragma once
// Values and keys that releases before 0.4.0 wrote into sessions, links and lessons under
// names of course material users never saw. They still load, mapped here to today's names,
// so earlier sessions and links open; nothing shows or writes them any more. This file and
// legacy_names.cpp are the only shipped text the private-names scan
// (tests/release/shipped_text_scan.cmake) allows to spell them.
#include <string>

namespace app {

// `mistake` (session value, --mistake, URL and lesson key): today's name of an old value,
// or the value unchanged when it is not an old one.
std::string current_mistake_name(const std::string& value);

// The session key `mirrored_rotation` was written under before 0.4.0.
extern const char* const kOldMirroredRotationKey;

}  // namespace app
