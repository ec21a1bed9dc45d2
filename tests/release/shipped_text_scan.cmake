# Fails when shipped text names the project's private course documents (the notebooks the
# teaching views were first checked against, and the list of their mistakes): users have
# never seen them, so a view, note, lesson, option value, comment or page must say what a
# mistake is and cite public sources instead.
#   cmake -DSOURCE_DIR=... -DPE_VIZ=build/pe-viz -DWORK_DIR=... -P tests/release/shipped_text_scan.cmake
# Scanned: app/ (with the browser page app/platform/web/index.html), core/, assets/ (lessons,
# presets, desktop and AppStream files, bash completion, Debian changelog), shaders/, docs/,
# README.md, CHANGELOG.md, and the manual page generated now from the binary's --help
# (scripts/man_page.cmake), which carries every option value the binary shows.
#
# What counts as a private name (case-insensitive), and why it cannot hit the random seed:
#   seed 000 … seed 099 in any spelling   "seed 004", "Seeds 000–004", "seed-001" (old option
#                                         values), "seed001_mix", "seed003_sign": "seed" then
#                                         an optional space, '_' or '-', then a 0 and two
#                                         digits. The RNG's "--seed 0", "seed %llu" or
#                                         "seed = 42" never has three digits starting with 0.
#   errata                                the list of the documents' mistakes ("SEED-ERRATA 3").
#   the seeds / seeds'                    the documents as a set ("the seeds' tables"); the RNG
#                                         has one seed, never "the seeds".
#   the seed's, seed notebook             one document ("the seed's q", "the seed notebook").
#   shared/seeds, ../shared               where the documents live.
# One file may spell old names: app/state/legacy_names.cpp keeps the values and keys earlier
# releases wrote (seed-004, seed-001, seed003_sign) so old sessions and links still open.
cmake_minimum_required(VERSION 3.25)
foreach(var SOURCE_DIR PE_VIZ WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "shipped_text_scan.cmake: pass -D${var}=...")
  endif()
endforeach()

set(PATTERNS
  "seeds?[ _-]?0[0-9][0-9]"
  "errata"
  "the seeds([^a-z]|$)"
  "seeds'"
  "the seed's"
  "seed notebook"
  "shared/seeds"
  "\\.\\./shared")
set(ALLOWED app/state/legacy_names.cpp)
set(BINARY_EXTENSIONS .png .jpg .jpeg .gif .ico .ttf .otf .woff .woff2 .wasm .gz)

# The pattern first: what it must catch and what it must leave alone (the random seed).
function(first_match text out_var)
  string(TOLOWER "${text}" lower)
  set(found "")
  foreach(p IN LISTS PATTERNS)
    string(REGEX MATCH "${p}" m "${lower}")
    if(NOT m STREQUAL "")
      set(found "${m}")
      break()
    endif()
  endforeach()
  set(${out_var} "${found}" PARENT_SCOPE)
endfunction()
foreach(sample "Seed 004's code" "Seeds 000–004 say" "seeds 000/001" "--mistake seed-004" "seed001_mix.hpp"
               "seed003_sign" "SEED-ERRATA 3" "the seeds' tables" "The seeds call this" "the seed's q"
               "the seed notebook" "../shared/seeds/001.txt" "Seed_002")
  first_match("${sample}" m)
  if(m STREQUAL "")
    message(FATAL_ERROR "shipped_text_scan: the pattern misses the private name in \"${sample}\"")
  endif()
endforeach()
foreach(sample "--seed 0" "seed %llu" "seed = 42" "Random seed (0 ... 18446744073709551615)" "seeded random tail"
               "mix_seed(p.seed, 1000 + 2 * t)" "Same seed, same picture." "seed: 0," "seed_oss" "seed 7"
               "the seed corpus of a fuzzer" "random seeds give other pictures")
  first_match("${sample}" m)
  if(NOT m STREQUAL "")
    message(FATAL_ERROR "shipped_text_scan: the pattern takes the random seed in \"${sample}\" for a private name (${m})")
  endif()
endforeach()

# The manual page as the binary writes it now.
file(MAKE_DIRECTORY "${WORK_DIR}")
execute_process(COMMAND ${CMAKE_COMMAND} -DPE_VIZ=${PE_VIZ} -DOUTPUT=${WORK_DIR}/pe-viz.1 -DVERSION=scan
                        -P ${SOURCE_DIR}/scripts/man_page.cmake
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "shipped_text_scan: writing the man page failed: ${out}${err}")
endif()

set(files "")
foreach(dir app core assets shaders docs)
  file(GLOB_RECURSE found LIST_DIRECTORIES false RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/${dir}/*)
  list(APPEND files ${found})
endforeach()
foreach(top README.md CHANGELOG.md)
  if(EXISTS ${SOURCE_DIR}/${top})
    list(APPEND files ${top})
  endif()
endforeach()
foreach(required app/platform/web/index.html assets/completion/pe-viz README.md CHANGELOG.md)
  if(NOT required IN_LIST files)
    message(FATAL_ERROR "shipped_text_scan: ${required} is missing: the scan would not cover it")
  endif()
endforeach()

set(hits "")
set(scanned 0)
foreach(rel IN LISTS files ITEMS "${WORK_DIR}/pe-viz.1")
  if(rel IN_LIST ALLOWED)
    continue()
  endif()
  get_filename_component(ext "${rel}" LAST_EXT)
  string(TOLOWER "${ext}" ext)
  if(ext IN_LIST BINARY_EXTENSIONS)
    continue()
  endif()
  if(IS_ABSOLUTE "${rel}")
    set(path "${rel}")
  else()
    set(path "${SOURCE_DIR}/${rel}")
  endif()
  file(READ "${path}" text)
  math(EXPR scanned "${scanned} + 1")
  string(TOLOWER "${text}" lower)
  foreach(p IN LISTS PATTERNS)
    string(REGEX MATCH "${p}" m "${lower}")
    if(m STREQUAL "")
      continue()
    endif()
    # The line of the first hit, for the message.
    string(FIND "${lower}" "${m}" at)
    string(SUBSTRING "${lower}" 0 ${at} before)
    string(REGEX MATCHALL "\n" newlines "${before}")
    list(LENGTH newlines line)
    math(EXPR line "${line} + 1")
    string(APPEND hits "  ${rel}:${line}: \"${m}\"\n")
  endforeach()
endforeach()
if(NOT hits STREQUAL "")
  message(FATAL_ERROR "shipped text names private documents (describe the mistake or example by what it is and cite "
                      "public sources; old values belong in app/state/legacy_names.cpp):\n${hits}")
endif()
message(STATUS "shipped_text_scan: ${scanned} files and the man page: no private document named")
