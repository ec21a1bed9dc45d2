# One version everywhere: CMakeLists.txt's project(VERSION) against what the build made of it —
# `pe-viz --version`, the version header the app and the browser build compile in, the
# Debian package's version (CPack), its changelog, AppStream's newest <release> (every release
# of CHANGELOG.md, oldest 0.1.0), the manual page's title line, and CHANGELOG.md's newest section.
#   cmake -DVERSION=0.4.0 -DSOURCE_DIR=... -DBUILD_DIR=... -DPE_VIZ=... -DAPP_ID=... -P tests/release/version_test.cmake
cmake_minimum_required(VERSION 3.25)
foreach(var VERSION SOURCE_DIR BUILD_DIR PE_VIZ APP_ID)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "version_test.cmake: pass -D${var}=...")
  endif()
endforeach()
set(failures "")
# expect(<if-arguments> WHAT "message"): the message is a failure unless the condition holds.
macro(expect)
  cmake_parse_arguments(EXPECT "" "WHAT" "" ${ARGN})
  if(NOT (${EXPECT_UNPARSED_ARGUMENTS}))
    string(APPEND failures "  ${EXPECT_WHAT}\n")
  endif()
endmacro()

if(NOT VERSION MATCHES "^[0-9]+\\.[0-9]+\\.[0-9]+$")
  string(APPEND failures "  the project's version '${VERSION}' is not semantic (MAJOR.MINOR.PATCH)\n")
endif()

execute_process(COMMAND ${PE_VIZ} --version OUTPUT_VARIABLE out RESULT_VARIABLE rc)
set(want "pe-viz ${VERSION}\n")
expect(rc EQUAL 0 AND out STREQUAL want WHAT "pe-viz --version printed '${out}', not 'pe-viz ${VERSION}'")

file(READ ${BUILD_DIR}/generated/state/version.hpp header)
string(FIND "${header}" "#define PE_VIZ_VERSION \"${VERSION}\"" at)
expect(at GREATER -1 WHAT "generated/state/version.hpp does not define PE_VIZ_VERSION \"${VERSION}\"")

file(STRINGS ${BUILD_DIR}/CPackConfig.cmake cpack REGEX "^set\\(CPACK_PACKAGE_VERSION ")
string(FIND "${cpack}" "\"${VERSION}\"" at)
expect(at GREATER -1 WHAT "the package's version is '${cpack}', not ${VERSION}")

file(STRINGS ${BUILD_DIR}/assets/changelog debian LIMIT_COUNT 1)
string(FIND "${debian}" "pe-viz (${VERSION}) unstable" at)
string(REPLACE ";" "," debian "${debian}")  # a list separator in the message
expect(at EQUAL 0 WHAT "the Debian changelog starts '${debian}'")

file(READ ${BUILD_DIR}/assets/${APP_ID}.metainfo.xml metainfo)
string(REGEX MATCHALL "<release version=\"[^\"]*\" date=\"[0-9-]+\"" releases "${metainfo}")
list(LENGTH releases count)
expect(count GREATER_EQUAL 4 WHAT "AppStream lists ${count} releases (0.1.0 … ${VERSION} expected)")
if(count GREATER 0)
  list(GET releases 0 newest)
  list(GET releases -1 oldest)
  string(FIND "${newest}" "version=\"${VERSION}\"" at_newest)
  string(FIND "${oldest}" "version=\"0.1.0\"" at_oldest)
  expect(at_newest GREATER -1 WHAT "AppStream's newest release is ${newest}")
  expect(at_oldest GREATER -1 WHAT "AppStream's oldest release is ${oldest}, not 0.1.0")
endif()

execute_process(COMMAND gzip -dc ${BUILD_DIR}/assets/pe-viz.1.gz OUTPUT_VARIABLE man RESULT_VARIABLE rc)
string(REGEX MATCH "\n\\.TH [^\n]*" title "\n${man}")
string(FIND "${title}" "\"pe\\-viz ${VERSION}\"" at)  # .TH PE\-VIZ 1 "" "pe\-viz X.Y.Z" ...
expect(rc EQUAL 0 AND at GREATER -1 WHAT "the manual page's title line is '${title}'")

file(STRINGS ${SOURCE_DIR}/CHANGELOG.md headings REGEX "^## \\[")
list(GET headings 0 changelog_newest)
string(FIND "${changelog_newest}" "## [${VERSION}] - " at)
expect(at EQUAL 0 WHAT "CHANGELOG.md's newest section is '${changelog_newest}'")

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "The version ${VERSION} is not everywhere:\n${failures}")
endif()
message(STATUS "version ${VERSION}: --version, header, package, Debian changelog, AppStream (${count} releases), man page, CHANGELOG.md")
