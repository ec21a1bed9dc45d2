#pragma once
// Every header of pe/base/ includes this. A target that did not link pe_core_base (a module declared
// below it in core/CMakeLists.txt, say) stops here instead of quietly using it.
#ifndef PE_MODULE_BASE
#error "pe/base is not linked into this target: only modules above it (and the app) may include it; link pe_core_base"
#endif
