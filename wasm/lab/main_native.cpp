// The Lab on the desktop: GLFW + OpenGL 3.3 core, the same App as the browser build.
//   posenc-lab [--state 'family=rope&len=2048'] [--set key=value]... [--size 1280x860]
//              [--frames N] [--screenshot out.png] [--sweep] [--redraw-all]
//              [--lang en|id|sv|ru] [--theme light|dark] [--i18n DIR]
// --lang picks the catalog web/i18n/<lang>/lab.json (default: the first two letters of $LANG
// when the page has that language, else English), the same file the browser's Lab reads;
// --i18n names another catalog folder; --theme the palette (default dark).
// --frames N runs N frames and exits, printing frame times; --screenshot writes the last frame
// as PNG; --sweep toggles the causal mask every frame (a full recomputation each frame, the cost
// of dragging a slider); --redraw-all rasterises every frame, even one that shows nothing new
// (which is otherwise skipped).
#include <GLFW/glfw3.h>

#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "imgui.h"
#include "backends/imgui_impl_glfw.h"
#include "backends/imgui_impl_opengl3.h"
#include "lab_font.hpp"
#include "lab_gl.hpp"
#include "lab_text.hpp"
#include "lab_ui.hpp"
#include "png.hpp"

namespace {

// CPU time of the whole process (every thread, Mesa's rasteriser threads included): on a busy
// machine it says what a frame costs better than the wall clock does.
double cpuMs() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

double nowMs() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int usage(const char* self) {
  std::fprintf(stderr,
               "usage: %s [--state QUERY] [--set key=value]... [--size WxH] [--frames N] "
               "[--screenshot out.png] [--sweep] [--redraw-all] [--lang en|id|sv|ru] [--theme light|dark] "
               "[--i18n DIR]\n",
               self);
  return 2;
}

const char* const kLanguages[] = {"en", "id", "sv", "ru"};  // web/i18n.js LANGUAGES

bool known(const std::string& lang) {
  for (const char* l : kLanguages) if (lang == l) return true;
  return false;
}

std::string defaultLanguage() {
  const char* env = std::getenv("LANG");
  const std::string lang = env ? std::string(env).substr(0, 2) : "";
  return known(lang) ? lang : "en";
}

// Reads <dir>/<lang>/lab.json and families.json (the families' names, shared with the page)
// into the Lab's strings; false with a message when it cannot.
bool loadCatalog(const std::string& dir, const std::string& lang) {
  std::vector<std::string> texts;
  for (const char* part : {"lab", "families"}) {
    const std::string path = dir + "/" + lang + "/" + part + ".json";
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "posenc-lab: cannot read %s\n", path.c_str());
      return false;
    }
    std::stringstream text;
    text << in.rdbuf();
    texts.push_back(text.str());
  }
  std::string error;
  if (!posenc::lab::setStrings(texts, &error)) {
    std::fprintf(stderr, "posenc-lab: %s/%s is not a catalog: %s\n", dir.c_str(), lang.c_str(), error.c_str());
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string query, screenshot;
  std::vector<std::string> sets;
  int width = 1280, height = 860, frames = 0;
  bool sweep = false, redrawAll = false, dark = true;
  std::string lang = defaultLanguage(), i18n = POSENC_LAB_I18N_DIR;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool more = i + 1 < argc;
    if (a == "--state" && more) query = argv[++i];
    else if (a == "--set" && more) sets.push_back(argv[++i]);
    else if (a == "--frames" && more) frames = std::atoi(argv[++i]);
    else if (a == "--screenshot" && more) screenshot = argv[++i];
    else if (a == "--size" && more) {
      if (std::sscanf(argv[++i], "%dx%d", &width, &height) != 2 || width < 200 || height < 200) return usage(argv[0]);
    } else if (a == "--sweep") sweep = true;
    else if (a == "--redraw-all") redrawAll = true;
    else if (a == "--lang" && more && known(argv[i + 1])) lang = argv[++i];
    else if (a == "--i18n" && more) i18n = argv[++i];
    else if (a == "--theme" && more && (std::strcmp(argv[i + 1], "light") == 0 || std::strcmp(argv[i + 1], "dark") == 0)) {
      dark = std::strcmp(argv[++i], "dark") == 0;
    }
    else return usage(argv[0]);
  }

  if (!loadCatalog(i18n, lang)) return 1;
  if (!glfwInit()) {
    std::fprintf(stderr, "posenc-lab: glfwInit failed (no display? run under xvfb-run)\n");
    return 1;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  GLFWwindow* window = glfwCreateWindow(width, height, posenc::lab::tr("lab.title"), nullptr, nullptr);
  if (!window) {
    std::fprintf(stderr, "posenc-lab: could not create an OpenGL 3.3 window\n");
    glfwTerminate();
    return 1;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(frames > 0 ? 0 : 1);  // scripted runs measure frames without waiting for vsync

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  if (!posenc::lab::loadFont(15.0f)) std::fprintf(stderr, "posenc-lab: no font was embedded; Dear ImGui's ASCII font\n");
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");

  posenc::lab::App app;
  app.setTheme(dark);
  app.applyQuery(query);
  for (const std::string& s : sets) {
    const size_t eq = s.find('=');
    if (eq == std::string::npos || !app.set(s.substr(0, eq), s.substr(eq + 1))) {
      std::fprintf(stderr, "posenc-lab: ignored --set %s (unknown key or bad value)\n", s.c_str());
    }
  }

  double firstFrameMs = 0, firstCpuMs = 0;
  std::vector<double> cpuTimes;
  int drawnFrames = 0;
  std::vector<double> times;
  for (int f = 0; !glfwWindowShouldClose(window) && (frames == 0 || f < frames); ++f) {
    const double t0 = nowMs(), c0 = cpuMs();
    glfwPollEvents();
    if (sweep && f > 0) app.set("causal", app.state.causal ? "0" : "1");
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    app.frame();
    ImGui::Render();
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(window, &fw, &fh);
    const bool shoot = frames > 0 && f == frames - 1 && !screenshot.empty();
    // A frame that shows nothing new is neither drawn nor swapped (the window keeps the last one),
    // except the one a screenshot reads.
    const bool draw = app.frameChanged() || shoot || redrawAll;
    if (draw) {
      ++drawnFrames;
      glViewport(0, 0, fw, fh);
      const float* bg = app.clearColor();
      glClearColor(bg[0], bg[1], bg[2], 1.0f);
      glClear(GL_COLOR_BUFFER_BIT);
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      glFinish();  // count the (software) rasterisation in the frame time
    }
    const double cpu = nowMs() - t0;
    app.recordFrame(t0, cpu);
    if (f == 0) {
      firstFrameMs = cpu;
      firstCpuMs = cpuMs() - c0;
    } else {
      times.push_back(cpu);
      cpuTimes.push_back(cpuMs() - c0);
    }
    if (shoot) {
      std::vector<uint8_t> pixels(size_t(fw) * fh * 4), flipped(pixels.size());
      glPixelStorei(GL_PACK_ALIGNMENT, 1);
      glReadPixels(0, 0, fw, fh, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
      for (int y = 0; y < fh; ++y) {  // GL's first row is the bottom one
        std::memcpy(&flipped[size_t(y) * fw * 4], &pixels[size_t(fh - 1 - y) * fw * 4], size_t(fw) * 4);
      }
      if (!posenc::lab::writePng(screenshot, fw, fh, flipped)) {
        std::fprintf(stderr, "posenc-lab: could not write %s\n", screenshot.c_str());
        return 1;
      }
    }
    if (draw) glfwSwapBuffers(window);
    else if (frames == 0) glfwWaitEventsTimeout(1.0 / 60);  // idle: wait for input, not a busy loop
  }

  if (frames > 0) {
    double sum = 0, worst = 0;
    for (double t : times) sum += t, worst = std::max(worst, t);
    std::printf("posenc-lab: %d frames at N = %d (%s): first %.1f ms (builds the model), then mean %.2f ms, "
                "worst %.2f ms; last recompute %.1f ms; %d of %d frames drawn%s\n",
                frames, app.state.len, posenc::lab::familyName(app.state.family), firstFrameMs,
                times.empty() ? 0.0 : sum / times.size(), worst, app.stats.computeMs, drawnFrames, frames,
                sweep ? " (--sweep: recomputed every frame)" : "");
    double cpuSum = 0;
    for (double t : cpuTimes) cpuSum += t;
    std::printf("posenc-lab: process CPU time: first frame %.1f ms, then mean %.2f ms per frame\n", firstCpuMs,
                cpuTimes.empty() ? 0.0 : cpuSum / cpuTimes.size());
    std::printf("posenc-lab: frame-ms");
    for (double t : times) std::printf(" %.3f", t);
    std::printf("\n");
    if (!app.model.error.empty()) std::printf("posenc-lab: core: %s\n", app.model.error.c_str());
    std::printf("posenc-lab: state %s\n", posenc::lab::toQuery(app.state).c_str());
    std::printf("posenc-lab: lang %s, theme %s, %d code points without a glyph\n", lang.c_str(),
                app.dark() ? "dark" : "light", app.missingGlyphs());
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return 0;
}
