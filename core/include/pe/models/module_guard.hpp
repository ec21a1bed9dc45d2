#pragma once
// Every header of pe/models/ includes this. A target that did not link pe_core_models (a module declared
// below it in core/CMakeLists.txt, say) stops here instead of quietly using it.
#ifndef PE_MODULE_MODELS
#error "pe/models is not linked into this target: only modules above it (and the app) may include it; link pe_core_models"
#endif
