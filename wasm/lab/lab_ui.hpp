// The Lab's window set, drawn with Dear ImGui; the same code runs in the browser (WebGL2) and
// natively (OpenGL 3). The platform's main owns the window and the ImGui backends and calls
// App::frame() once per frame between ImGui::NewFrame() and ImGui::Render().
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lab_model.hpp"
#include "lab_state.hpp"

namespace posenc::lab {

struct Texture {
  unsigned id = 0;
  int width = 0, height = 0;
  void upload(int w, int h, const std::vector<uint8_t>& rgba);
};

struct FrameStats {
  double frameMs = 0;     // mean CPU time of a frame (UI, model updates, draw submission)
  double intervalMs = 0;  // mean time between frame starts
  double computeMs = 0;   // the last recomputation of the model
  double maxFrameMs = 0;  // worst frame in the window
  int frames = 0;
  int drawn = 0;          // frames that were rasterised (the others showed nothing new)
};

class App {
 public:
  State state;
  Model model;
  FrameStats stats;
  // Called with toQuery(state) after the state changed (the web build writes it to the URL).
  std::function<void(const std::string&)> onStateChange;

  App();
  // Builds every window for this frame (call between ImGui::NewFrame and ImGui::Render).
  void frame();
  // Sets state from a query string or one key (the URL at start-up, scripted changes).
  void applyQuery(const std::string& query);
  bool set(const std::string& key, const std::string& value);
  // After ImGui::Render(): does this frame look different from the last one drawn (draw lists
  // or textures changed)? An unchanged frame need not be rasterised again; with software GL
  // (headless browsers, Xvfb) that is most of an idle frame's cost.
  bool frameChanged();
  // Frame timing, fed by the platform's main loop.
  void recordFrame(double startMs, double cpuMs);
  // The light or dark palette (Dear ImGui's style and the Lab's own colours); the platform
  // clears the frame with clearColor() (RGB).
  void setTheme(bool dark);
  bool dark() const { return dark_; }
  const float* clearColor() const;
  // Code points of the catalog's strings that the current font has no glyph for (Dear ImGui
  // would draw them as '?'); 0 when every string can be shown.
  int missingGlyphs() const;
  // The encoding table's title as the Lab shows it (the catalog's text with its numbers).
  std::string tableTitle() const;

 private:
  Texture encodingTexture_, attentionTexture_;
  double encodingLo_ = 0, encodingHi_ = 1;  // colour scale of the encoding texture
  bool texturesStale_ = true;
  bool texturesUploaded_ = false;
  uint64_t lastDrawHash_ = 0;
  FrameStats shown_;
  double shownAt_ = -1;
  bool changed_ = false;
  bool dark_ = true;
  bool themeChanged_ = false;
  std::vector<double> frameTimes_, frameStarts_;

  void refresh();
  void controls();
  void encodingPanel(float w, float h);
  void attentionPanel(float w, float h);
  void wavelengthPanel(float w, float h);
  void scorePanel(float w, float h);
};

}  // namespace posenc::lab
