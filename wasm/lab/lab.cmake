# The Lab: a Dear ImGui workbench over the same core (wasm/lab/), built twice from one source:
#   emscripten: wasm/dist/posenc-lab-simd.mjs + .wasm and posenc-lab-scalar.*, for web/lab.html
#               (Emscripten's GLFW, WebGL2);
#               Dear ImGui compiled from Debian's source package (`apt-get source imgui`, which
#               wasm/tools/setup.sh fetches into build/imgui-src/; nothing is vendored)
#   native:     posenc-lab in the build directory, from Debian's libimgui-dev (which carries
#               the GLFW and OpenGL 3 backends) + libglfw3-dev
# The Lab's numbers come from the core's functions (core/*.cpp), never from code of its own.
# Either half is skipped with a message when its packages are missing.
# The wasm half is built twice, posenc-lab-simd and posenc-lab-scalar, picked by web/lab.js with
# the loader's SIMD probe like the core's modules.
set(POSENC_LAB_DIR ${CMAKE_CURRENT_LIST_DIR})

# The font (lab_font.hpp): DejaVu Sans from Debian's fonts-dejavu-core, cut to the catalogs'
# scripts with fontTools' subsetter (Debian's python3-fonttools, run by Debian's python3: about
# 48 KB instead of 760 KB), else whole; embedded as a C++ array. No font: Dear ImGui's own
# (ASCII only), with a message.
set(POSENC_LAB_FONT_SOURCE /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf)
set(POSENC_LAB_FONT_RANGES "U+0020-007E,U+00A0-017F,U+0391-03C9,U+0400-04FF,U+2010-2044,U+2190-2193,U+2212,U+221A-221E,U+2248,U+2264-2265,U+2308-230B,U+1D40")
set(POSENC_LAB_FONT_DATA ${CMAKE_BINARY_DIR}/lab-font/lab_font_data.cpp)
if(EXISTS ${POSENC_LAB_FONT_SOURCE})
  execute_process(COMMAND /usr/bin/python3 -c "import fontTools.subset" RESULT_VARIABLE posenc_no_fonttools
                  OUTPUT_QUIET ERROR_QUIET)
  if(posenc_no_fonttools EQUAL 0)
    set(POSENC_LAB_FONT ${CMAKE_BINARY_DIR}/lab-font/DejaVuSans-lab.ttf)
    add_custom_command(OUTPUT ${POSENC_LAB_FONT}
      COMMAND /usr/bin/python3 -m fontTools.subset ${POSENC_LAB_FONT_SOURCE} --unicodes=${POSENC_LAB_FONT_RANGES}
              --layout-features= --no-hinting --output-file=${POSENC_LAB_FONT}
      DEPENDS ${POSENC_LAB_FONT_SOURCE} VERBATIM)
  else()
    message(STATUS "Lab: python3-fonttools missing, embedding all of ${POSENC_LAB_FONT_SOURCE}")
    set(POSENC_LAB_FONT ${POSENC_LAB_FONT_SOURCE})
  endif()
else()
  message(STATUS "Lab: no ${POSENC_LAB_FONT_SOURCE} (fonts-dejavu-core): Dear ImGui's ASCII font only")
  set(POSENC_LAB_FONT "")
endif()
add_custom_command(OUTPUT ${POSENC_LAB_FONT_DATA}
  COMMAND ${CMAKE_COMMAND} -DINPUT=${POSENC_LAB_FONT} -DOUTPUT=${POSENC_LAB_FONT_DATA} -P ${POSENC_LAB_DIR}/embed_font.cmake
  DEPENDS ${POSENC_LAB_FONT} ${POSENC_LAB_DIR}/embed_font.cmake VERBATIM)

set(POSENC_LAB_SOURCES ${POSENC_LAB_DIR}/lab_state.cpp ${POSENC_LAB_DIR}/lab_model.cpp
    ${POSENC_LAB_DIR}/lab_ui.cpp ${POSENC_LAB_DIR}/lab_text.cpp ${POSENC_LAB_DIR}/lab_font.cpp ${POSENC_LAB_FONT_DATA})

if(EMSCRIPTEN)
  set(POSENC_IMGUI_SOURCE_DIR ${CMAKE_SOURCE_DIR}/build/imgui-src/imgui CACHE PATH
      "Dear ImGui sources (Debian's source package, unpacked by wasm/tools/setup.sh)")
  if(EXISTS ${POSENC_IMGUI_SOURCE_DIR}/imgui.cpp)
    set(d ${POSENC_IMGUI_SOURCE_DIR})
    add_library(posenc-imgui-wasm STATIC EXCLUDE_FROM_ALL ${d}/imgui.cpp ${d}/imgui_draw.cpp
      ${d}/imgui_tables.cpp ${d}/imgui_widgets.cpp ${d}/backends/imgui_impl_glfw.cpp
      ${d}/backends/imgui_impl_opengl3.cpp)
    target_include_directories(posenc-imgui-wasm PUBLIC ${d})
    target_compile_definitions(posenc-imgui-wasm PUBLIC IMGUI_IMPL_OPENGL_ES3 IMGUI_DISABLE_DEMO_WINDOWS)
    target_compile_options(posenc-imgui-wasm PRIVATE -O2)

    foreach(variant simd scalar)
      set(t posenc-lab-${variant})
      add_executable(${t} EXCLUDE_FROM_ALL ${POSENC_LAB_SOURCES} ${POSENC_LAB_DIR}/main_web.cpp)
      target_include_directories(${t} PRIVATE ${CMAKE_SOURCE_DIR} ${POSENC_LAB_DIR})
      target_compile_options(${t} PRIVATE ${POSENC_WASM_COMPILE})
      target_link_libraries(${t} PRIVATE posenc-imgui-wasm posenc-core-obj-${variant})
      target_link_options(${t} PRIVATE ${POSENC_WASM_LINK} -sUSE_GLFW=3
        -sMAX_WEBGL_VERSION=2 -sMIN_WEBGL_VERSION=2 -sMODULARIZE=1 -sEXPORT_ES6=1
        -sENVIRONMENT=web -sEXPORT_NAME=createPosencLab -sFILESYSTEM=0
        -sEXPORTED_RUNTIME_METHODS=ccall,UTF8ToString)
      if(variant STREQUAL "simd")
        target_compile_options(${t} PRIVATE -msimd128)
        target_link_options(${t} PRIVATE -msimd128)
      endif()
      set_target_properties(${t} PROPERTIES SUFFIX ".mjs"
        RUNTIME_OUTPUT_DIRECTORY ${CMAKE_SOURCE_DIR}/wasm/dist)
    endforeach()
    add_custom_target(posenc-lab DEPENDS posenc-lab-simd posenc-lab-scalar)
  else()
    message(STATUS "Lab (wasm): skipped, no Dear ImGui sources in ${POSENC_IMGUI_SOURCE_DIR} "
                   "(wasm/tools/setup.sh fetches them)")
  endif()
else()
  find_package(PkgConfig QUIET)
  find_package(OpenGL QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(POSENC_IMGUI QUIET IMPORTED_TARGET imgui)
    pkg_check_modules(POSENC_GLFW QUIET IMPORTED_TARGET glfw3)
  endif()
  if(POSENC_IMGUI_FOUND AND POSENC_GLFW_FOUND AND OPENGL_FOUND AND NOT POSENC_SANITIZE)
    add_executable(posenc-lab ${POSENC_LAB_SOURCES} ${POSENC_LAB_DIR}/main_native.cpp
      ${POSENC_LAB_DIR}/png.cpp)
    target_include_directories(posenc-lab PRIVATE ${POSENC_LAB_DIR})
    target_compile_options(posenc-lab PRIVATE -Wall -Wextra)
    # The catalogs the desktop Lab reads (web/i18n/<lang>/lab.json; --i18n DIR for another place).
    target_compile_definitions(posenc-lab PRIVATE POSENC_LAB_I18N_DIR="${CMAKE_SOURCE_DIR}/web/i18n")
    target_link_libraries(posenc-lab PRIVATE posenc-core PkgConfig::POSENC_IMGUI PkgConfig::POSENC_GLFW
      OpenGL::GL ${CMAKE_DL_LIBS})
  elseif(NOT POSENC_SANITIZE)
    message(STATUS "Lab (native): skipped, needs libimgui-dev, libglfw3-dev and OpenGL "
                   "(wasm/tools/setup.sh installs them)")
  endif()
endif()
