# CMake toolchain of the browser build: Debian's emscripten, plus the prefix of the
# third-party libraries scripts/web/deps built from Debian's source packages.
#   cmake -DCMAKE_TOOLCHAIN_FILE=scripts/web/toolchain.cmake -DPE_VIZ_WEB_DEPS=<prefix> ...
# (scripts/web.sh does all of it.)
if(NOT DEFINED EMSCRIPTEN_ROOT_PATH)
  set(EMSCRIPTEN_ROOT_PATH /usr/share/emscripten)
endif()
include(${EMSCRIPTEN_ROOT_PATH}/cmake/Modules/Platform/Emscripten.cmake)

if(PE_VIZ_WEB_DEPS)
  list(APPEND CMAKE_FIND_ROOT_PATH ${PE_VIZ_WEB_DEPS})
  list(APPEND CMAKE_PREFIX_PATH ${PE_VIZ_WEB_DEPS})
  # pkg-config looks only here: never at the build machine's own .pc files.
  set(ENV{PKG_CONFIG_LIBDIR} ${PE_VIZ_WEB_DEPS}/lib/pkgconfig)
  set(ENV{PKG_CONFIG_PATH} "")
  set(ENV{PKG_CONFIG_SYSROOT_DIR} "")
endif()
