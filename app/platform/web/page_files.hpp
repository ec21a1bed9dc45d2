#pragma once
// Files a page holds in place: a dropped or picked .safetensors / .gguf too large to copy into
// the page's in-memory file system (index.html, peViz.held) is kept as the browser's File, and
// its bytes are read by range through File.slice(a, b).arrayBuffer() — headers and the q/k rows
// only, never the whole file (platform/host.hpp: page_file, make_page_file_loader).
#include <memory>
#include <string>

#include "pe/weights/ranged_file.hpp"

namespace app {

// The held file `name` ("model.safetensors", or "/files/model.safetensors" as the working
// folder spells it) as a ranged file; nullptr when the page holds no such file.
std::shared_ptr<pe::RangedFile> held_page_file(const std::string& name);

// Loads ranges of held files through File.slice, a few at a time; never blocks.
std::unique_ptr<pe::RangeLoader> make_held_file_loader();

}  // namespace app
