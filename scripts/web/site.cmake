# The browser build's program and the site around it (included by app/CMakeLists.txt when
# EMSCRIPTEN): pe-viz.js + pe-viz.wasm and the page (app/platform/web/index.html) in
# ${CMAKE_BINARY_DIR}/site/, which any static host serves as it is; and site-file/, the same
# page with the program's wasm inside its script (scripts/web/single_file.py), for pages opened
# from disk (file://, where a browser fetches no .wasm): `pe-viz export --interactive` copies that.
set(PE_WEB ${CMAKE_SOURCE_DIR}/app/platform/web)

# The shaders' GLSL 3.30 version line becomes GLSL ES 3.00's (render/shader_sources.cpp).
target_compile_definitions(pe_gui PRIVATE PE_VIZ_GLSL_ES=1)

# The fonts the desktop reads from fonts-dejavu-core, at the same paths in the page's
# in-memory file system (plot/imgui_theme.cpp looks there).
set(PE_FONT_DIR /usr/share/fonts/truetype/dejavu)
set(PE_WEB_FONTS "")
foreach(face DejaVuSans DejaVuSans-Bold DejaVuSans-Oblique DejaVuSans-BoldOblique DejaVuSansMono)
  list(APPEND PE_WEB_FONTS "SHELL:--embed-file ${PE_FONT_DIR}/${face}.ttf@${PE_FONT_DIR}/${face}.ttf")
endforeach()
set(PE_WEB_LINK_OPTIONS
  -sUSE_GLFW=3 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2
  -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -sINITIAL_MEMORY=64MB
  -sENVIRONMENT=web
  "SHELL:-sEXPORTED_RUNTIME_METHODS=['FS']"
  ${PE_WEB_FONTS})

add_executable(pe-viz main.cpp)
target_link_libraries(pe-viz PRIVATE pe_app)
set_target_properties(pe-viz PROPERTIES SUFFIX ".js" RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/program)
target_link_options(pe-viz PRIVATE ${PE_WEB_LINK_OPTIONS})

# The script for disk: the same program, its wasm inside (one link serves both sites).
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/program/pe-viz-single.js
  COMMAND Python3::Interpreter ${CMAKE_SOURCE_DIR}/scripts/web/single_file.py ${CMAKE_BINARY_DIR}/program/pe-viz.js
          ${CMAKE_BINARY_DIR}/program/pe-viz.wasm ${CMAKE_BINARY_DIR}/program/pe-viz-single.js
  DEPENDS pe-viz ${CMAKE_SOURCE_DIR}/scripts/web/single_file.py
  COMMENT "The program for pages opened from disk: pe-viz.js with its wasm inside")

# site/: for web servers (the .wasm beside the script, compiled while it streams in);
# site-file/: for disk (the .wasm inside the script), what export --interactive copies.
add_custom_target(pe_viz_site ALL
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/site ${CMAKE_BINARY_DIR}/site-file
  COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_BINARY_DIR}/program/pe-viz.js ${CMAKE_BINARY_DIR}/program/pe-viz.wasm
          ${PE_WEB}/index.html ${CMAKE_BINARY_DIR}/site/
  COMMAND ${CMAKE_COMMAND} -E copy ${PE_WEB}/index.html ${CMAKE_BINARY_DIR}/site-file/
  COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_BINARY_DIR}/program/pe-viz-single.js ${CMAKE_BINARY_DIR}/site-file/pe-viz.js
  DEPENDS pe-viz ${CMAKE_BINARY_DIR}/program/pe-viz-single.js ${PE_WEB}/index.html
  COMMENT "Sites in ${CMAKE_BINARY_DIR}/site (web servers) and site-file (disk)")
