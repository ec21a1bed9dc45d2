// Linked into every GUI test: in-process video encoding finds the FFmpeg module of this
// build (the tests' executables do not sit beside it, as pe-viz does). Children inherit it.
#include <cstdlib>

namespace {
const bool kVideoModuleSet = [] { return setenv("PE_VIZ_VIDEO_MODULE", PE_VIZ_VIDEO_MODULE_FILE, 0) == 0; }();
}  // namespace
