// The Lab in the browser: Emscripten's built-in GLFW on a WebGL2 canvas, the same App as the
// native build. web/lab.js creates the module, hands it the catalog's strings (lab_set_strings)
// and the theme, starts it (lab_start) and talks to it through the other lab_* exports.
#include <GLFW/glfw3.h>
#include <emscripten.h>

#include <string>

#include "imgui.h"
#include "backends/imgui_impl_glfw.h"
#include "backends/imgui_impl_opengl3.h"
#include "lab_font.hpp"
#include "lab_gl.hpp"
#include "lab_text.hpp"
#include "lab_ui.hpp"

namespace {

posenc::lab::App* app = nullptr;
GLFWwindow* window = nullptr;
std::string stateText;

// The canvas's size in CSS pixels (the page lays it out; the Lab follows).
EM_JS(int, canvasCssWidth, (), { return Math.max(1, Math.round(Module.canvas.clientWidth)); });
EM_JS(int, canvasCssHeight, (), { return Math.max(1, Math.round(Module.canvas.clientHeight)); });
// Tells the page the state changed (it writes the URL).
EM_JS(void, notifyState, (const char* query), {
  if (Module.onStateChange) Module.onStateChange(UTF8ToString(query));
});

void frame() {
  const double t0 = emscripten_get_now();
  int w = 0, h = 0;
  glfwGetWindowSize(window, &w, &h);
  const int cw = canvasCssWidth(), ch = canvasCssHeight();
  if (cw != w || ch != h) glfwSetWindowSize(window, cw, ch);
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  app->frame();
  ImGui::Render();
  // A frame that shows nothing new is not drawn: the canvas keeps showing the last one.
  if (app->frameChanged()) {
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(window, &fw, &fh);
    glViewport(0, 0, fw, fh);
    const float* bg = app->clearColor();
    glClearColor(bg[0], bg[1], bg[2], 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  }
  app->recordFrame(t0, emscripten_get_now() - t0);
}

}  // namespace

extern "C" {

// Sets one parameter ("family", "len", ...); returns 1 when the key is known and the value parses.
EMSCRIPTEN_KEEPALIVE int lab_set(const char* key, const char* value) { return app && app->set(key, value) ? 1 : 0; }

// Applies a query string such as "family=alibi&heads=8".
EMSCRIPTEN_KEEPALIVE void lab_apply_query(const char* query) {
  if (app) app->applyQuery(query);
}

// The state as a query string.
EMSCRIPTEN_KEEPALIVE const char* lab_state() {
  stateText = app ? posenc::lab::toQuery(app->state) : "";
  return stateText.c_str();
}

// A displayed number (see Model::readout); NaN when there is none.
EMSCRIPTEN_KEEPALIVE double lab_readout(const char* name, int a, int b) {
  return app ? app->model.readout(name, a, b) : 0.0 / 0.0;
}

// Frame statistics: "frameMs", "maxFrameMs", "intervalMs", "computeMs", "frames", "drawn", "len",
// and "busy" (1 while Dear ImGui uses the keyboard: an item being edited or a popup open).
EMSCRIPTEN_KEEPALIVE double lab_stat(const char* name) {
  if (!app) return 0.0 / 0.0;
  const std::string n = name;
  const posenc::lab::FrameStats& s = app->stats;
  if (n == "frameMs") return s.frameMs;
  if (n == "maxFrameMs") return s.maxFrameMs;
  if (n == "intervalMs") return s.intervalMs;
  if (n == "computeMs") return s.computeMs;
  if (n == "frames") return s.frames;
  if (n == "drawn") return s.drawn;
  if (n == "len") return app->model.state.len;
  if (n == "missingGlyphs") return app->missingGlyphs();
  if (n == "dark") return app->dark() ? 1 : 0;
  // Is Dear ImGui using the keyboard (an item being edited, a popup open)? Escape is then its own.
  if (n == "busy") return ImGui::IsAnyItemActive() || ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId);
  return 0.0 / 0.0;
}

// The encoding table's title as shown.
static std::string titleText;
EMSCRIPTEN_KEEPALIVE const char* lab_table_title() {
  titleText = app ? app->tableTitle() : "";
  return titleText.c_str();
}

// The core's message when it refused the current parameters ("" when it did not).
EMSCRIPTEN_KEEPALIVE const char* lab_error() { return app ? app->model.error.c_str() : ""; }

// Has the model been computed for the current state (no change pending)?
EMSCRIPTEN_KEEPALIVE int lab_settled() {
  return app && app->model.computed && posenc::lab::toQuery(app->model.state) == posenc::lab::toQuery(app->state);
}

// The catalog part lab.json as JSON text; returns 1 when it parsed (before or after lab_start).
EMSCRIPTEN_KEEPALIVE int lab_set_strings(const char* json) { return posenc::lab::setStrings(json) ? 1 : 0; }

// The light (0) or dark (1) palette; before lab_start it is the first one.
static bool startDark = true;
EMSCRIPTEN_KEEPALIVE void lab_set_theme(int dark) {
  if (app) app->setTheme(dark != 0);
  else startDark = dark != 0;
}

// Creates the WebGL2 context, Dear ImGui and the Lab, and starts the frame loop. Returns 0 when
// the browser gives no WebGL2 context (the page then says so), 1 otherwise.
EMSCRIPTEN_KEEPALIVE int lab_start() {
  if (app) return 1;
  if (!glfwInit()) return 0;
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  window = glfwCreateWindow(canvasCssWidth(), canvasCssHeight(), "lab", nullptr, nullptr);
  if (!window) return 0;
  glfwMakeContextCurrent(window);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  posenc::lab::loadFont(15.0f);
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 300 es");

  app = new posenc::lab::App();
  app->setTheme(startDark);
  app->onStateChange = [](const std::string& q) { notifyState(q.c_str()); };
  emscripten_set_main_loop(frame, 0, false);
  return 1;
}

}  // extern "C"

int main() { return 0; }  // lab_start, called by web/lab.js, does the work
