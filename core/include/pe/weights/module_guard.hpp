#pragma once
// Every header of pe/weights/ includes this. A target that did not link pe_core_weights (a module declared
// below it in core/CMakeLists.txt, say) stops here instead of quietly using it.
#ifndef PE_MODULE_WEIGHTS
#error "pe/weights is not linked into this target: only modules above it (and the app) may include it; link pe_core_weights"
#endif
