#pragma once
// Every header of pe/hub/ includes this. A target that did not link pe_core_hub (a module declared
// below it in core/CMakeLists.txt, say) stops here instead of quietly using it.
#ifndef PE_MODULE_HUB
#error "pe/hub is not linked into this target: only modules above it (and the app) may include it; link pe_core_hub"
#endif
