# The Lab: a Dear ImGui workbench over the same core (wasm/lab/), built twice from one source:
#   emscripten: wasm/dist/posenc-lab.mjs + .wasm, for web/lab.html (Emscripten's GLFW, WebGL2);
#               Dear ImGui compiled from Debian's source package (`apt-get source imgui`, which
#               wasm/tools/setup.sh fetches into build/imgui-src/; nothing is vendored)
#   native:     posenc-lab in the build directory, from Debian's libimgui-dev (which carries
#               the GLFW and OpenGL 3 backends) + libglfw3-dev
# The Lab's numbers come from the core's functions (core/*.cpp), never from code of its own.
# Either half is skipped with a message when its packages are missing.
set(POSENC_LAB_DIR ${CMAKE_CURRENT_LIST_DIR})
set(POSENC_LAB_SOURCES ${POSENC_LAB_DIR}/lab_state.cpp ${POSENC_LAB_DIR}/lab_model.cpp
    ${POSENC_LAB_DIR}/lab_ui.cpp)

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

    add_executable(posenc-lab EXCLUDE_FROM_ALL ${POSENC_LAB_SOURCES} ${POSENC_LAB_DIR}/main_web.cpp
      ${POSENC_CORE_SOURCES})
    target_include_directories(posenc-lab PRIVATE ${CMAKE_SOURCE_DIR} ${POSENC_LAB_DIR})
    target_compile_options(posenc-lab PRIVATE ${POSENC_WASM_COMPILE} -msimd128)
    target_link_libraries(posenc-lab PRIVATE posenc-imgui-wasm)
    target_link_options(posenc-lab PRIVATE ${POSENC_WASM_LINK} -msimd128 -sUSE_GLFW=3
      -sMAX_WEBGL_VERSION=2 -sMIN_WEBGL_VERSION=2 -sMODULARIZE=1 -sEXPORT_ES6=1
      -sENVIRONMENT=web -sEXPORT_NAME=createPosencLab -sFILESYSTEM=0
      -sEXPORTED_RUNTIME_METHODS=ccall,UTF8ToString)
    set_target_properties(posenc-lab PROPERTIES SUFFIX ".mjs"
      RUNTIME_OUTPUT_DIRECTORY ${CMAKE_SOURCE_DIR}/wasm/dist)
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
    target_link_libraries(posenc-lab PRIVATE posenc-core PkgConfig::POSENC_IMGUI PkgConfig::POSENC_GLFW
      OpenGL::GL ${CMAKE_DL_LIBS})
  elseif(NOT POSENC_SANITIZE)
    message(STATUS "Lab (native): skipped, needs libimgui-dev, libglfw3-dev and OpenGL "
                   "(wasm/tools/setup.sh installs them)")
  endif()
endif()
