# pe_embed_files(TARGET name NAMESPACE ns FILES f1 f2 ...)
# Generates <name>.cpp/.hpp in the build tree with one entry per file:
#   struct EmbeddedFile { const char* name; const unsigned char* data; size_t size; };
#   std::span<const EmbeddedFile> ns::files();   // data is NUL-terminated for text use
# and adds a static library target `name` with it. Regenerated when any file changes.
set(PE_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/embed_one.cmake)

function(pe_embed_files)
  cmake_parse_arguments(E "" "TARGET;NAMESPACE" "FILES" ${ARGN})
  set(out_dir ${CMAKE_BINARY_DIR}/embedded/${E_TARGET})
  set(parts)
  set(index 0)
  set(decls "")
  set(entries "")
  foreach(f IN LISTS E_FILES)
    get_filename_component(abs ${f} ABSOLUTE)
    get_filename_component(base ${f} NAME)
    set(part ${out_dir}/part_${index}.cpp)
    add_custom_command(
      OUTPUT ${part}
      COMMAND ${CMAKE_COMMAND} -DIN=${abs} -DOUT=${part} -DSYMBOL=${E_NAMESPACE}_data_${index}
              -P ${PE_EMBED_SCRIPT}
      DEPENDS ${abs} ${PE_EMBED_SCRIPT}
      COMMENT "Embedding ${base}")
    list(APPEND parts ${part})
    string(APPEND decls "extern const unsigned char ${E_NAMESPACE}_data_${index}[];\nextern const std::size_t ${E_NAMESPACE}_size_${index};\n")
    string(APPEND entries "  {\"${base}\", ${E_NAMESPACE}_data_${index}, ${E_NAMESPACE}_size_${index}},\n")
    math(EXPR index "${index} + 1")
  endforeach()
  file(WRITE ${out_dir}/${E_TARGET}.hpp
"#pragma once
#include <cstddef>
#include <span>
#include <string_view>
namespace ${E_NAMESPACE} {
struct EmbeddedFile {
  const char* name;
  const unsigned char* data;
  std::size_t size;
  std::string_view text() const { return {reinterpret_cast<const char*>(data), size}; }
};
std::span<const EmbeddedFile> files();
// Returns nullptr when no embedded file has that base name.
const EmbeddedFile* find(std::string_view name);
}
")
  file(WRITE ${out_dir}/${E_TARGET}_index.cpp
"#include \"${E_TARGET}.hpp\"
#include <array>
${decls}
namespace ${E_NAMESPACE} {
namespace {
// The trailing sentinel keeps the array valid when there are no files.
const EmbeddedFile kFiles[] = {
${entries}  {nullptr, nullptr, 0}};
}
std::span<const EmbeddedFile> files() { return {kFiles, ${index}}; }
const EmbeddedFile* find(std::string_view name) {
  for (const auto& f : files()) if (name == f.name) return &f;
  return nullptr;
}
}
")
  add_library(${E_TARGET} STATIC ${out_dir}/${E_TARGET}_index.cpp ${parts})
  target_include_directories(${E_TARGET} PUBLIC ${out_dir})
  target_compile_features(${E_TARGET} PUBLIC cxx_std_20)
endfunction()
