#include "lab_ui.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "imgui.h"
#include "lab_gl.hpp"
#include "lab_text.hpp"
#include "palette.gen.hpp"

namespace posenc::lab {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// ---- the theme -----------------------------------------------------------------------------

// The colours the Lab draws itself (Dear ImGui's own come from StyleColorsDark/Light). The
// colour maps of the heatmaps are the same in both themes; lines and text are not.
struct Palette {
  ImU32 plotBg, plotFrame, grid, label, reference, pin, hover, frame, blue, orange, green, grey;
  ImVec4 error;
  float clear[3];
};
const Palette kDark{IM_COL32(24, 26, 30, 255),   IM_COL32(140, 140, 140, 255), IM_COL32(70, 74, 80, 255),
                    IM_COL32(200, 200, 200, 255), IM_COL32(230, 230, 230, 255), IM_COL32(255, 220, 0, 200),
                    IM_COL32(255, 255, 255, 120), IM_COL32(160, 160, 160, 255), IM_COL32(90, 170, 255, 255),
                    IM_COL32(255, 150, 40, 255),  IM_COL32(90, 200, 140, 255),  IM_COL32(160, 160, 160, 255),
                    ImVec4(1.0f, 0.45f, 0.4f, 1.0f), {0.08f, 0.09f, 0.1f}};
const Palette kLight{IM_COL32(255, 255, 255, 255), IM_COL32(110, 110, 110, 255), IM_COL32(215, 218, 222, 255),
                     IM_COL32(40, 40, 40, 255),    IM_COL32(30, 30, 30, 255),    IM_COL32(190, 120, 0, 230),
                     IM_COL32(0, 0, 0, 110),       IM_COL32(90, 90, 90, 255),    IM_COL32(20, 90, 200, 255),
                     IM_COL32(190, 85, 0, 255),    IM_COL32(0, 125, 70, 255),    IM_COL32(105, 105, 105, 255),
                     ImVec4(0.72f, 0.1f, 0.1f, 1.0f), {0.96f, 0.96f, 0.95f}};
const Palette* palette = &kDark;
const Palette& pal() { return *palette; }

// A widget's label in the catalog's words, its ID the key (stable across languages).
std::string label(const char* key) { return std::string(tr(key)) + "##" + key; }
constexpr int kTextureSide = 512;  // figures are drawn smaller than this on any screen

// ---- colours -------------------------------------------------------------------------------

struct Rgb {
  float r, g, b;
};
Rgb mix(Rgb a, Rgb b, float t) { return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t}; }

// A colour on evenly spaced stops (the page's, wasm/lab/palette.gen.hpp), u in [0, 1].
template <size_t N>
Rgb along(const unsigned char (&stops)[N][3], float u) {
  const float x = std::clamp(u, 0.0f, 1.0f) * float(N - 1);
  const int i = std::min(int(N) - 2, int(x));
  const Rgb a{float(stops[i][0]), float(stops[i][1]), float(stops[i][2])};
  const Rgb b{float(stops[i + 1][0]), float(stops[i + 1][1]), float(stops[i + 1][2])};
  return mix(a, b, x - float(i));
}
// The page's diverging scale for signed values, t in [-1, 1]: blue, near-white at 0, red.
Rgb diverging(float t) { return along(kDivergingStops, (std::clamp(t, -1.0f, 1.0f) + 1.0f) / 2.0f); }
// The sequential scale (dark blue, teal, yellow), t in [0, 1].
Rgb sequential(float t) { return along(kSequentialStops, t); }

// The colour scale of a table: symmetric around 0 for signed values, min..max otherwise.
struct Scale {
  double lo = 0, hi = 1;
};
Scale scaleOf(const Table& t) {
  double lo = kInf, hi = -kInf;
  for (float v : t.v) {
    if (std::isfinite(v)) {
      lo = std::min(lo, double(v));
      hi = std::max(hi, double(v));
    }
  }
  if (!(lo <= hi)) return {};
  if (t.signedValues) {
    const double m = std::max({std::fabs(lo), std::fabs(hi), 1e-30});
    return {-m, m};
  }
  if (hi == lo) hi = lo + 1;
  return {lo, hi};
}

// The table as an RGBA image of at most maxSide x maxSide pixels: a bigger table is pooled in
// blocks, each pixel showing its block's extreme (largest |v| for signed values, largest v
// otherwise), so thin features such as a diagonal survive. The readouts use the exact table.
//   rowScaled (attention weights): each value over its row's maximum, square-rooted, so every
//   row's pattern shows whatever its spread (a causal first row would otherwise be all of it).
void colorize(const Table& t, bool rowScaled, int maxSide, std::vector<uint8_t>& rgba, int& w, int& h) {
  Scale s = scaleOf(t);
  std::vector<float> rowMax;
  if (rowScaled) {
    rowMax.assign(t.rows, 0.0f);
    for (int r = 0; r < t.rows; ++r) {
      for (int c = 0; c < t.cols; ++c) rowMax[r] = std::max(rowMax[r], t.at(r, c));
      if (!(rowMax[r] > 0)) rowMax[r] = 1;
    }
    s = {0, 1};
  }
  const int br = (t.rows + maxSide - 1) / maxSide, bc = (t.cols + maxSide - 1) / maxSide;
  h = (t.rows + br - 1) / br;
  w = (t.cols + bc - 1) / bc;
  rgba.resize(size_t(w) * h * 4);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      float v = std::numeric_limits<float>::quiet_NaN();
      for (int r = y * br; r < std::min(t.rows, (y + 1) * br); ++r) {
        const float* row = t.v.data() + size_t(r) * t.cols;
        for (int c = x * bc; c < std::min(t.cols, (x + 1) * bc); ++c) {
          const float u = rowScaled ? row[c] / rowMax[r] : row[c];
          if (!std::isfinite(u)) continue;
          if (std::isnan(v) || (t.signedValues ? std::fabs(u) > std::fabs(v) : u > v)) v = u;
        }
      }
      Rgb c{128, 128, 128};
      if (std::isfinite(v)) {
        if (t.signedValues) {
          c = diverging(float(v / s.hi));
        } else {
          float u = float((v - s.lo) / (s.hi - s.lo));
          if (rowScaled) u = std::sqrt(u);  // small weights stay visible
          c = sequential(u);
        }
      }
      uint8_t* px = &rgba[(size_t(y) * w + x) * 4];
      px[0] = uint8_t(c.r);
      px[1] = uint8_t(c.g);
      px[2] = uint8_t(c.b);
      px[3] = 255;
    }
  }
}

// ---- widgets that report a change ----------------------------------------------------------

bool sliderInt(const char* label, int* v, int lo, int hi, bool log = false) {
  return ImGui::SliderInt(label, v, lo, hi, "%d", log ? ImGuiSliderFlags_Logarithmic : 0);
}
bool sliderDouble(const char* label, double* v, double lo, double hi, const char* format, bool log = false) {
  return ImGui::SliderScalar(label, ImGuiDataType_Double, v, &lo, &hi, format,
                             log ? ImGuiSliderFlags_Logarithmic : 0);
}
// The slider of the state's numeric field `key`: its range, its top in this state, its scale
// and its format all come from the state's one table (lab_state.hpp, kNumberFields).
bool fieldSlider(State& s, const char* key, const std::string& text) {
  const NumberField* f = numberField(key);
  if (!f) return false;
  const double top = topOf(*f, s);
  if (f->real) return sliderDouble(text.c_str(), &(s.*f->real), f->min, top, f->format, f->log);
  int& v = s.*f->integer;
  if (!sliderInt(text.c_str(), &v, int(f->min), int(top), f->log)) return false;
  if (f->even) v += v % 2;  // (an even field's max is even)
  return true;
}
template <typename E>
bool combo(const char* label, E* value, const char* const items[], int count) {
  int i = int(*value);
  if (!ImGui::Combo(label, &i, items, count)) return false;
  *value = E(i);
  return true;
}

void help(const char* text) {
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", text);
  ImGui::PopTextWrapPos();
}

// ---- figures -------------------------------------------------------------------------------

struct Cell {
  int row = -1, col = -1;
};

// A table as an image filling `size`; returns the hovered cell; a click pins it.
Cell heatmap(const Texture& tex, const Table& t, ImVec2 size, Cell pinned, bool* clicked) {
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(tex.id)), size);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRect(p0, ImVec2(p0.x + size.x, p0.y + size.y), pal().frame);
  const float cw = size.x / std::max(1, t.cols), ch = size.y / std::max(1, t.rows);
  if (pinned.row >= 0 && pinned.row < t.rows && pinned.col >= 0 && pinned.col < t.cols) {
    const float x = p0.x + pinned.col * cw, y = p0.y + pinned.row * ch;
    const float ex = std::max(cw, 6.0f), ey = std::max(ch, 6.0f);
    const ImVec2 a(x + cw / 2 - ex / 2 - 1, y + ch / 2 - ey / 2 - 1), b(a.x + ex + 2, a.y + ey + 2);
    dl->AddRect(a, b, IM_COL32(0, 0, 0, 255), 0, 0, 3.0f);
    dl->AddRect(a, b, IM_COL32(255, 220, 0, 255), 0, 0, 1.5f);
  }
  Cell hover;
  *clicked = false;
  if (ImGui::IsItemHovered() && t.rows > 0 && t.cols > 0) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    hover.col = std::clamp(int((m.x - p0.x) / cw), 0, t.cols - 1);
    hover.row = std::clamp(int((m.y - p0.y) / ch), 0, t.rows - 1);
    *clicked = ImGui::IsMouseClicked(0);
  }
  return hover;
}

struct Series {
  const std::vector<double>* y;
  ImU32 color;
  const char* name;
  bool dashed;
};

std::string tickLabel(double v) {
  if (v != 0 && (std::fabs(v) >= 1e7 || std::fabs(v) < 1e-3)) return num(v, "%.0e");
  if (std::fabs(v) >= 1e4) return num(v, "%.0f");
  return num(v, "%.4g");
}

// Curves over x = x0 + i; y on a log10 axis when logY. A horizontal reference line at hline
// (NaN: none). Non-finite points leave gaps. Returns the hovered index, or -1.
int linePlot(ImVec2 size, double x0, const std::vector<Series>& series, bool logY, double hline,
             const char* hlineName, int pinned) {
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("plot", size);
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float left = 58, bottom = 20, top = 6, right = 10;
  const ImVec2 a(p0.x + left, p0.y + top), b(p0.x + size.x - right, p0.y + size.y - bottom);
  dl->AddRectFilled(a, b, pal().plotBg);
  dl->AddRect(a, b, pal().plotFrame);
  size_t n = 0;
  auto tf = [&](double v) { return logY ? (v > 0 ? std::log10(v) : -kInf) : v; };
  double lo = kInf, hi = -kInf;
  for (const Series& s : series) {
    n = std::max(n, s.y->size());
    for (double v : *s.y) {
      const double t = tf(v);
      if (std::isfinite(t)) lo = std::min(lo, t), hi = std::max(hi, t);
    }
  }
  if (std::isfinite(tf(hline))) lo = std::min(lo, tf(hline)), hi = std::max(hi, tf(hline));
  if (n == 0 || !(lo <= hi)) return -1;
  if (hi - lo < 1e-12) lo -= 1, hi += 1;
  const double pad = (hi - lo) * 0.06;
  lo -= pad, hi += pad;
  const double xmax = std::max<double>(1, double(n) - 1);
  auto px = [&](double i) { return float(a.x + (b.x - a.x) * (i / xmax)); };
  auto py = [&](double t) { return float(b.y - (b.y - a.y) * ((t - lo) / (hi - lo))); };
  const ImU32 grid = pal().grid, text = pal().label;
  // y ticks: decades on a log axis, five steps on a linear one
  if (logY) {
    const double step = std::max(1.0, std::ceil((hi - lo) / 6));
    for (double e = std::ceil(lo); e <= hi; e += step) {
      dl->AddLine(ImVec2(a.x, py(e)), ImVec2(b.x, py(e)), grid);
      const std::string s = tickLabel(std::pow(10.0, e));
      dl->AddText(ImVec2(p0.x + 2, py(e) - 7), text, s.c_str());
    }
  } else {
    for (int k = 0; k <= 4; ++k) {
      const double t = lo + (hi - lo) * k / 4;
      dl->AddLine(ImVec2(a.x, py(t)), ImVec2(b.x, py(t)), grid);
      const std::string s = tickLabel(t);
      dl->AddText(ImVec2(p0.x + 2, py(t) - 7), text, s.c_str());
    }
  }
  for (int k = 0; k <= 4; ++k) {
    const double i = std::round(xmax * k / 4);
    const std::string s = tickLabel(x0 + i);
    const float w = ImGui::CalcTextSize(s.c_str()).x;
    dl->AddText(ImVec2(std::clamp(px(i) - w / 2, a.x, b.x - w), b.y + 3), text, s.c_str());
  }
  dl->PushClipRect(a, b, true);
  if (std::isfinite(tf(hline))) {
    dl->AddLine(ImVec2(a.x, py(tf(hline))), ImVec2(b.x, py(tf(hline))), pal().reference, 1.5f);
    dl->AddText(ImVec2(a.x + 4, py(tf(hline)) - 15), pal().reference, hlineName);
  }
  for (const Series& s : series) {
    const std::vector<double>& y = *s.y;
    float run = 0;
    for (size_t i = 1; i < y.size(); ++i) {
      const double t0 = tf(y[i - 1]), t1 = tf(y[i]);
      if (!std::isfinite(t0) || !std::isfinite(t1)) continue;
      const ImVec2 u(px(double(i - 1)), py(t0)), v(px(double(i)), py(t1));
      const float len = std::hypot(v.x - u.x, v.y - u.y);
      if (!s.dashed || std::fmod(run, 10.0f) < 6.0f) dl->AddLine(u, v, s.color, 2.0f);
      run += len;
    }
    if (y.size() <= 64 || s.dashed) {  // marks where the points are few (or the line is dashed)
      for (size_t i = 0; i < y.size(); ++i) {
        const double t = tf(y[i]);
        if (std::isfinite(t)) dl->AddCircleFilled(ImVec2(px(double(i)), py(t)), 2.5f, s.color);
      }
    }
  }
  if (pinned >= 0 && size_t(pinned) < n) {
    dl->AddLine(ImVec2(px(pinned), a.y), ImVec2(px(pinned), b.y), pal().pin, 1.5f);
  }
  int hover = -1;
  if (hovered) {
    const float mx = ImGui::GetIO().MousePos.x;
    hover = std::clamp(int(std::lround((mx - a.x) / (b.x - a.x) * xmax)), 0, int(n) - 1);
    dl->AddLine(ImVec2(px(hover), a.y), ImVec2(px(hover), b.y), pal().hover);
  }
  dl->PopClipRect();
  return hover;
}

void legend(const std::vector<Series>& series) {
  for (size_t i = 0; i < series.size(); ++i) {
    if (i) ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(series[i].color), "%s %s",
                       series[i].dashed ? "- -" : "---", series[i].name);
  }
}

bool usesDims(Family f) { return f != Family::Alibi && f != Family::T5; }

// The catalog key of a family's label (families.json: families.<registry name>.long), made once.
const char* familyLabelKey(Family f) {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> v;
    for (int i = 0; i < kFamilies; ++i) v.push_back(std::string("families.") + familyName(Family(i)) + ".long");
    return v;
  }();
  return keys[size_t(f)].c_str();
}

}  // namespace

// ---- textures ------------------------------------------------------------------------------

void Texture::upload(int w, int h, const std::vector<uint8_t>& rgba) {
  if (!id) glGenTextures(1, &id);
  glBindTexture(GL_TEXTURE_2D, id);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);  // cells stay sharp both ways
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  if (w == width && h == height) {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  } else {
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    width = w;
    height = h;
  }
}

// ---- the app -------------------------------------------------------------------------------

App::App() { clamp(state); }

void App::applyQuery(const std::string& query) {
  if (posenc::lab::applyQuery(state, query)) changed_ = true;
}

bool App::set(const std::string& key, const std::string& value) {
  const bool ok = applyParam(state, key, value);
  if (ok) changed_ = true;
  return ok;
}

void App::recordFrame(double startMs, double cpuMs) {
  frameStarts_.push_back(startMs);
  frameTimes_.push_back(cpuMs);
  constexpr size_t kWindow = 60;
  if (frameTimes_.size() > kWindow) frameTimes_.erase(frameTimes_.begin());
  if (frameStarts_.size() > kWindow + 1) frameStarts_.erase(frameStarts_.begin());
  double sum = 0, worst = 0;
  for (double t : frameTimes_) sum += t, worst = std::max(worst, t);
  stats.frameMs = sum / frameTimes_.size();
  stats.maxFrameMs = worst;
  stats.intervalMs = frameStarts_.size() > 1
                         ? (frameStarts_.back() - frameStarts_.front()) / (frameStarts_.size() - 1) : 0;
  stats.frames += 1;
}

void App::refresh() {
  if (model.update(state)) {
    stats.computeMs = model.millis;
    texturesStale_ = true;
  }
  if (texturesStale_) {
    std::vector<uint8_t> rgba;
    int w = 0, h = 0;
    if (!model.encoding.v.empty()) {
      const Scale sc = scaleOf(model.encoding);
      encodingLo_ = sc.lo;
      encodingHi_ = sc.hi;
      colorize(model.encoding, false, kTextureSide, rgba, w, h);
      encodingTexture_.upload(w, h, rgba);
    }
    if (!model.attention.v.empty()) {
      colorize(model.attention, true, kTextureSide, rgba, w, h);
      attentionTexture_.upload(w, h, rgba);
    }
    texturesStale_ = false;
    texturesUploaded_ = true;
  }
}

bool App::frameChanged() {
  // FNV-1a over 8-byte words of every vertex, index and command of the draw lists.
  uint64_t hash = 1469598103934665603ull;
  auto mix = [&](const void* data, size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
      uint64_t w;
      std::memcpy(&w, p + i, 8);
      hash = (hash ^ w) * 1099511628211ull;
    }
    for (; i < bytes; ++i) hash = (hash ^ p[i]) * 1099511628211ull;
  };
  const ImDrawData* dd = ImGui::GetDrawData();
  if (dd) {
    mix(&dd->DisplaySize, sizeof dd->DisplaySize);
    for (int l = 0; l < dd->CmdListsCount; ++l) {
      const ImDrawList* list = dd->CmdLists[l];
      mix(list->VtxBuffer.Data, size_t(list->VtxBuffer.Size) * sizeof(ImDrawVert));
      mix(list->IdxBuffer.Data, size_t(list->IdxBuffer.Size) * sizeof(ImDrawIdx));
      for (const ImDrawCmd& c : list->CmdBuffer) {
        mix(&c.ClipRect, sizeof c.ClipRect);
        mix(&c.TextureId, sizeof c.TextureId);
        mix(&c.ElemCount, sizeof c.ElemCount);
        mix(&c.IdxOffset, sizeof c.IdxOffset);
      }
    }
  }
  const bool changed = hash != lastDrawHash_ || texturesUploaded_ || themeChanged_;
  lastDrawHash_ = hash;
  texturesUploaded_ = false;
  themeChanged_ = false;
  if (changed) stats.drawn += 1;
  return changed;
}

void App::frame() {
  refresh();
  ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(io.DisplaySize);
  // The one window takes the keyboard from the start (Tab and the arrow keys walk its controls).
  if (ImGui::GetFrameCount() <= 1) ImGui::SetNextWindowFocus();
  ImGui::Begin("lab", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus);
  const bool narrow = io.DisplaySize.x < 900;
  if (narrow) {
    // Phones and narrow windows: the controls, then each figure below, in one scrolling column.
    ImGui::BeginChild("all", ImVec2(0, 0), false);
    controls();
    const float w = ImGui::GetContentRegionAvail().x, h = 400;
    encodingPanel(w, h);
    attentionPanel(w, h);
    wavelengthPanel(w, h);
    scorePanel(w, h);
    ImGui::EndChild();
  } else {
    const float cw = std::clamp(io.DisplaySize.x * 0.27f, 280.0f, 380.0f);
    ImGui::BeginChild("controls", ImVec2(cw, 0), true);
    controls();
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("figures", ImVec2(0, 0), false);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float sp = ImGui::GetStyle().ItemSpacing.x;
    const float w = std::floor((avail.x - sp) / 2), h = std::floor((avail.y - sp) / 2);
    encodingPanel(w, h);
    ImGui::SameLine();
    attentionPanel(w, h);
    wavelengthPanel(w, h);
    ImGui::SameLine();
    scorePanel(w, h);
    ImGui::EndChild();
  }
  ImGui::End();
  if (changed_) {
    clamp(state);
    changed_ = false;
    if (onStateChange) onStateChange(toQuery(state));
  }
}

void App::setTheme(bool dark) {
  palette = dark ? &kDark : &kLight;
  if (dark) ImGui::StyleColorsDark();
  else ImGui::StyleColorsLight();
  if (!dark) {
    // Dear ImGui's light style leaves disabled text at a contrast of about 2.4:1 on its window
    // background; the Lab's help lines are disabled text, so they get a darker grey.
    ImGui::GetStyle().Colors[ImGuiCol_TextDisabled] = ImVec4(0.36f, 0.36f, 0.36f, 1.0f);
  }
  dark_ = dark;
  themeChanged_ = true;
}

const float* App::clearColor() const { return pal().clear; }

void App::controls() {
  State& s = state;
  bool c = false;
  ImGui::TextUnformatted(tr("lab.title"));
  help(tr("lab.intro"));
  ImGui::Separator();
  ImGui::PushItemWidth(-std::max(110.0f, ImGui::GetContentRegionAvail().x * 0.42f));
  {
    const char* items[kFamilies];
    for (int i = 0; i < kFamilies; ++i) items[i] = tr(familyLabelKey(Family(i)));
    c |= combo(label("lab.family").c_str(), &s.family, items, kFamilies);
  }
  c |= fieldSlider(s, "len", label("lab.len"));
  c |= fieldSlider(s, "d", label("lab.d"));
  const bool rotates = rotaryDims(s.family, s.d) > 0;
  if (s.family == Family::Sinusoidal || rotates) {
    c |= fieldSlider(s, "base", label("lab.base"));
  }
  if (rotates) {
    ImGui::Separator();
    ImGui::TextUnformatted(tr("lab.rope.heading"));
    const char* layouts[] = {tr("lab.layout.half"), tr("lab.layout.interleaved")};
    c |= combo(label("lab.layout").c_str(), &s.layout, layouts, 2);
    const char* scalings[] = {tr("lab.scaling.default"), tr("lab.scaling.linear"), tr("lab.scaling.dynamic"),
                              tr("lab.scaling.yarn"),    tr("lab.scaling.llama3"), tr("lab.scaling.longrope")};
    c |= combo(label("lab.scaling").c_str(), &s.scaling, scalings, 6);
    if (s.scaling != RopeScalingType::Default) c |= fieldSlider(s, "factor", label("lab.factor"));
    c |= fieldSlider(s, "orig", label("lab.orig"));
    // Hugging Face's own field names: the reader copies them into a config.
    if (s.scaling == RopeScalingType::Yarn) {
      c |= fieldSlider(s, "betaFast", "beta_fast");
      c |= fieldSlider(s, "betaSlow", "beta_slow");
    }
    if (s.scaling == RopeScalingType::Llama3) {
      c |= fieldSlider(s, "lowFreq", "low_freq_factor");
      c |= fieldSlider(s, "highFreq", "high_freq_factor");
    }
    if (s.scaling == RopeScalingType::Dynamic) help(tr("lab.help.dynamic"));
    if (s.scaling == RopeScalingType::Longrope) help(tr("lab.help.longrope"));
    ImGui::TextUnformatted(trf("lab.attentionFactor", {{"value", num(model.attentionFactor)}}).c_str());
  }
  if (s.family == Family::Alibi) {
    ImGui::Separator();
    ImGui::TextUnformatted(tr("lab.alibi.heading"));
    c |= fieldSlider(s, "heads", label("lab.heads"));
    c |= fieldSlider(s, "head", label("lab.head"));
    if (size_t(s.head) < model.slopes.size()) {
      ImGui::TextUnformatted(trf("lab.slopeOfHead", {{"head", num(s.head)}, {"slope", num(model.slopes[s.head])}}).c_str());
    }
  }
  if (s.family == Family::T5) {
    ImGui::Separator();
    ImGui::TextUnformatted(tr("lab.t5.heading"));
    c |= fieldSlider(s, "buckets", label("lab.buckets"));
    c |= fieldSlider(s, "maxDistance", label("lab.maxDistance"));
    help(tr("lab.help.t5"));
  }
  if (s.family == Family::Learned) {
    ImGui::Separator();
    ImGui::TextUnformatted(tr("lab.learned.heading"));
    c |= fieldSlider(s, "table", label("lab.table"));
    help(tr("lab.help.learned"));
  }
  ImGui::Separator();
  ImGui::TextUnformatted(tr("lab.attention.heading"));
  c |= ImGui::Checkbox(label("lab.causal").c_str(), &s.causal);
  c |= fieldSlider(s, "seed", label("lab.seed"));
  c |= fieldSlider(s, "qpos", label("lab.query"));
  c |= fieldSlider(s, "kpos", label("lab.key"));
  if (usesDims(s.family)) {
    c |= fieldSlider(s, "pos", label("lab.tablePos"));
    c |= fieldSlider(s, "dim", label("lab.tableDim"));
  }
  ImGui::PopItemWidth();
  help(tr("lab.help.tokens"));
  ImGui::Separator();
  // The timings as of the last second (text that changed every frame would force a redraw).
  const double now = ImGui::GetTime();
  if (now - shownAt_ >= 1.0 || shown_.frames < 2) {
    shown_ = stats;
    shownAt_ = now;
  }
  ImGui::TextUnformatted(trf("lab.stats.frame", {{"ms", num(shown_.frameMs, "%.2f")}, {"worst", num(shown_.maxFrameMs, "%.1f")}}).c_str());
  ImGui::TextUnformatted(trf("lab.stats.interval", {{"ms", num(shown_.intervalMs, "%.1f")}}).c_str());
  ImGui::TextUnformatted(trf("lab.stats.compute", {{"ms", num(stats.computeMs, "%.1f")}, {"n", num(model.state.len)}}).c_str());
  if (!model.error.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(pal().error, "%s", trf("lab.coreSays", {{"message", model.error}}).c_str());
    ImGui::PopTextWrapPos();
  }
  if (c) changed_ = true;
}

void App::encodingPanel(float w, float h) {
  ImGui::BeginChild("encoding", ImVec2(w, h), true);
  const Table& t = model.encoding;
  if (t.v.empty()) {
    ImGui::TextDisabled("%s", tr("lab.noTable"));
    ImGui::EndChild();
    return;
  }
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(tableTitle().c_str());
  ImGui::PopTextWrapPos();
  const Scale sc{encodingLo_, encodingHi_};
  const std::string rowName = tr(t.rowLabel.c_str()), colName = tr(t.colLabel.c_str());
  ImGui::TextDisabled("%s", trf("lab.axes", {{"rows", rowName}, {"rowLast", num(t.rows - 1)}, {"cols", colName},
                                             {"colLast", num(t.cols - 1)}}).c_str());
  const float lineH = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 size(ImGui::GetContentRegionAvail().x, std::max(40.0f, ImGui::GetContentRegionAvail().y - 2 * lineH));
  // The pinned cell: (pos, dim) of a position table, (head, distance) for ALiBi, (query, key) for T5.
  int* pr = &state.pos;
  int* pc = &state.dim;
  if (state.family == Family::Alibi) pr = &state.head, pc = &state.pos;
  if (state.family == Family::T5) pr = &state.qpos, pc = &state.kpos;
  bool clicked = false;
  const Cell hover = heatmap(encodingTexture_, t, size, Cell{*pr, *pc}, &clicked);
  auto cellText = [&](int r, int col) {
    return trf("lab.cell", {{"rows", rowName}, {"row", num(r)}, {"cols", colName}, {"col", num(col)},
                            {"value", num(double(t.at(r, col)))}});
  };
  if (hover.row >= 0) {
    ImGui::SetTooltip("%s", cellText(hover.row, hover.col).c_str());
    if (clicked) {
      *pr = hover.row;
      *pc = hover.col;
      changed_ = true;
    }
  }
  const int r = std::clamp(*pr, 0, t.rows - 1), col = std::clamp(*pc, 0, t.cols - 1);
  ImGui::TextUnformatted(trf("lab.pinned", {{"what", cellText(r, col)}}).c_str());
  if (t.signedValues) {
    ImGui::TextDisabled("%s", trf("lab.colour.signed", {{"lo", num(sc.lo, "%.3g")}, {"hi", num(sc.hi, "%.3g")}}).c_str());
  } else {
    ImGui::TextDisabled("%s", trf("lab.colour.sequential", {{"lo", num(sc.lo, "%.3g")}, {"hi", num(sc.hi, "%.3g")}}).c_str());
  }
  ImGui::EndChild();
}

void App::attentionPanel(float w, float h) {
  ImGui::BeginChild("attention", ImVec2(w, h), true);
  const Table& t = model.attention;
  if (t.v.empty()) {
    ImGui::TextUnformatted(tr("lab.attention.heading"));
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(pal().error, "%s", trf("lab.refused", {{"message", model.error}}).c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndChild();
    return;
  }
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(tr(state.causal ? "lab.attention.titleCausal" : "lab.attention.title"));
  ImGui::PopTextWrapPos();
  const int n = state.len;
  const bool binned = model.attentionStep > 1 || t.cols < n;
  if (binned) {
    ImGui::TextDisabled("%s", trf("lab.attention.binned", {{"step", num(model.attentionStep)},
                                                           {"last", num(model.attentionQueries.back())},
                                                           {"bins", num(t.cols)}, {"per", num((n + t.cols - 1) / t.cols)}}).c_str());
  } else {
    ImGui::TextDisabled("%s", trf("lab.attention.exact", {{"rowLast", num(t.rows - 1)}, {"colLast", num(t.cols - 1)}}).c_str());
  }
  const float lineH = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float side = std::max(40.0f, std::min(avail.x, avail.y - 2 * lineH));
  bool clicked = false;
  const Cell pinnedCell{model.drawnRowOf(state.qpos), model.binOf(state.kpos)};
  const Cell hover = heatmap(attentionTexture_, t, ImVec2(side, side), pinnedCell, &clicked);
  // Exact readouts: the weight of one query and key from the core's exact row of that query.
  auto describe = [&](int i, int j) {
    const std::vector<float>& w = model.weightsOf(i);
    const double v = j < int(w.size()) ? double(w[j]) : std::numeric_limits<double>::quiet_NaN();
    const double b = model.biasAt(i, j);
    if (std::isnan(b)) return trf("lab.weight", {{"query", num(i)}, {"key", num(j)}, {"value", num(v)}});
    return trf("lab.weightBias", {{"query", num(i)}, {"key", num(j)}, {"value", num(v)},
                                  {"bias", std::isinf(b) ? std::string("\xE2\x88\x92\xE2\x88\x9E") : num(b, "%.4g")}});
  };
  if (hover.row >= 0) {
    const int i = model.attentionQueries[hover.row];
    const int lo = model.attentionEdges[hover.col], hi = model.attentionEdges[hover.col + 1] - 1;
    if (lo == hi) {
      ImGui::SetTooltip("%s", describe(i, lo).c_str());
    } else {
      ImGui::SetTooltip("%s\n%s", describe(i, lo).c_str(),
                        trf("lab.keysTogether", {{"lo", num(lo)}, {"hi", num(hi)}, {"value", num(double(t.at(hover.row, hover.col)))}}).c_str());
    }
    if (clicked) {
      state.qpos = i;
      state.kpos = lo;
      changed_ = true;
    }
  }
  ImGui::TextUnformatted(trf("lab.pinned", {{"what", describe(state.qpos, state.kpos)}}).c_str());
  ImGui::TextDisabled("%s", tr(binned ? "lab.colour.bins" : "lab.colour.weights"));
  ImGui::EndChild();
}

std::string App::tableTitle() const {
  const Table& t = model.encoding;
  return trf(t.title.c_str(), {{"last", num(t.rows - 1)}, {"rotated", num(rotaryDims(model.state.family, model.state.d))},
                               {"cols", num(t.cols)}});
}

void App::wavelengthPanel(float w, float h) {
  ImGui::BeginChild("wavelength", ImVec2(w, h), true);
  const bool rope = rotaryDims(state.family, state.d) > 0;
  const float lineH = ImGui::GetTextLineHeightWithSpacing();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (state.family == Family::Alibi && !model.slopes.empty()) {
    // ALiBi has no wavelengths: its one parameter per head is the slope.
    ImGui::TextUnformatted(tr("lab.slopes.title"));
    const std::string name = tr("lab.series.slope");
    std::vector<Series> series{{&model.slopes, pal().blue, name.c_str(), false}};
    legend(series);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const int hover = linePlot(ImVec2(avail.x, std::max(60.0f, avail.y - 2 * lineH)), 0, series, true, nan, "", state.head);
    if (hover >= 0) {
      ImGui::SetTooltip("%s", trf("lab.slopes.tip", {{"head", num(hover)}, {"slope", num(model.slopes[hover])},
                                                     {"bias", num(-model.slopes[hover] * 100, "%.4g")}}).c_str());
      if (ImGui::IsMouseClicked(0)) {
        state.head = hover;
        changed_ = true;
      }
    }
    ImGui::TextDisabled("%s", trf("lab.slopes.x", {{"last", num(int(model.slopes.size()) - 1)}}).c_str());
    const size_t h0 = std::min<size_t>(state.head, model.slopes.size() - 1);
    ImGui::TextUnformatted(trf("lab.slopeOfHead", {{"head", num(int(h0))}, {"slope", num(model.slopes[h0])}}).c_str());
    ImGui::EndChild();
    return;
  }
  if (state.family == Family::T5 && !model.bucketBias.empty()) {
    // T5 has no wavelengths: its parameters are one bias per bucket.
    ImGui::TextUnformatted(tr("lab.buckets.title"));
    const std::vector<double> biases(model.bucketBias.begin(), model.bucketBias.end());
    const std::string name = tr("lab.series.bias");
    std::vector<Series> series{{&biases, pal().blue, name.c_str(), false}};
    legend(series);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const int pinned = int(model.readout("bucket", state.qpos, state.kpos));
    const int hover = linePlot(ImVec2(avail.x, std::max(60.0f, avail.y - 2 * lineH)), 0, series, false, nan, "", pinned);
    if (hover >= 0) ImGui::SetTooltip("%s", trf("lab.buckets.tip", {{"bucket", num(hover)}, {"bias", num(biases[hover])}}).c_str());
    ImGui::TextDisabled("%s", trf(state.causal ? "lab.buckets.x" : "lab.buckets.xBoth", {{"last", num(int(biases.size()) - 1)}}).c_str());
    ImGui::TextUnformatted(trf("lab.buckets.pinned", {{"query", num(state.qpos)}, {"key", num(state.kpos)}, {"bucket", num(pinned)},
                                                      {"bias", num(pinned >= 0 && size_t(pinned) < biases.size() ? biases[pinned] : 0.0)}}).c_str());
    ImGui::EndChild();
    return;
  }
  if (model.wavelengthBase.empty()) {
    ImGui::TextUnformatted(tr("lab.wave.heading"));
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", tr("lab.wave.none"));
    ImGui::PopTextWrapPos();
    ImGui::EndChild();
    return;
  }
  ImGui::TextUnformatted(tr("lab.wave.title"));
  const std::vector<double>& scaled = model.wavelengthScaled.empty() ? model.wavelengthBase : model.wavelengthScaled;
  int within = 0, withinBase = 0;  // pairs that turn at least once within the training length
  for (double l : scaled) within += l <= state.orig;
  for (double l : model.wavelengthBase) withinBase += l <= state.orig;
  const std::string unscaled = tr("lab.series.unscaled"), scaledName = tr("lab.series.scaled"),
                    own = tr(familyLabelKey(rope ? state.family : Family::Sinusoidal));
  std::vector<Series> series;
  if (rope && state.scaling != RopeScalingType::Default) {
    series.push_back({&model.wavelengthBase, pal().grey, unscaled.c_str(), true});
    series.push_back({&model.wavelengthScaled, pal().orange, scaledName.c_str(), false});
  } else {
    series.push_back({&scaled, pal().blue, own.c_str(), false});
  }
  legend(series);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const int hover = linePlot(ImVec2(avail.x, std::max(60.0f, avail.y - 2 * lineH)), 0, series, true, state.orig,
                             tr("lab.orig"), -1);
  if (hover >= 0) {
    ImGui::SetTooltip("%s", trf("lab.wave.tip", {{"pair", num(hover)}, {"wavelength", num(scaled[hover])},
                                                 {"unscaled", num(model.wavelengthBase[hover])},
                                                 {"turns", num(state.orig / scaled[hover], "%.4g")}}).c_str());
  }
  ImGui::TextDisabled("%s", trf("lab.wave.x", {{"last", num(int(scaled.size()) - 1)}}).c_str());
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(trf("lab.wave.within", {{"orig", num(state.orig)}, {"count", num(within)},
                                                  {"total", num(int(scaled.size()))}, {"base", num(withinBase)}}).c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndChild();
}

void App::scorePanel(float w, float h) {
  ImGui::BeginChild("scores", ImVec2(w, h), true);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(trf("lab.scores.title", {{"query", num(state.qpos)}}).c_str());
  ImGui::PopTextWrapPos();
  if (model.scores.empty()) {
    ImGui::TextDisabled("%s", tr("lab.scores.none"));
    ImGui::EndChild();
    return;
  }
  const std::string name = tr("lab.series.score");
  std::vector<Series> series{{&model.scores, pal().green, name.c_str(), false}};
  legend(series);
  const float lineH = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const int hover = linePlot(ImVec2(avail.x, std::max(60.0f, avail.y - 2 * lineH)), -double(state.qpos), series,
                             false, std::numeric_limits<double>::quiet_NaN(), "", state.kpos);
  auto scoreText = [&](int k) {
    const double v = model.scores[k];
    return std::isinf(v) ? std::string(tr("lab.scores.masked")) : num(v);
  };
  if (hover >= 0) {
    ImGui::SetTooltip("%s", trf("lab.scores.tip", {{"key", num(hover)}, {"distance", num(hover - state.qpos)},
                                                   {"score", scoreText(hover)}}).c_str());
    if (ImGui::IsMouseClicked(0)) {
      state.kpos = hover;
      changed_ = true;
    }
  }
  ImGui::TextDisabled("%s", tr(state.causal ? "lab.scores.xCausal" : "lab.scores.x"));
  const int k = std::min(state.kpos, int(model.scores.size()) - 1);
  ImGui::TextUnformatted(trf("lab.scores.pinned", {{"key", num(k)}, {"distance", num(k - state.qpos)}, {"score", scoreText(k)}}).c_str());
  ImGui::EndChild();
}

int App::missingGlyphs() const {
  const ImFont* font = ImGui::GetFont();
  if (!font) return -1;
  int missing = 0;
  for (const std::string& text : allStrings()) {
    // UTF-8 by hand (Dear ImGui's decoder is internal): lead byte, then continuation bytes.
    for (size_t i = 0; i < text.size();) {
      const unsigned char b = static_cast<unsigned char>(text[i]);
      const int len = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
      unsigned c = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
      for (int k = 1; k < len && i + k < text.size(); ++k) c = (c << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
      i += size_t(len);
      if (c >= 0x20 && (c > 0xFFFF || !font->FindGlyphNoFallback(ImWchar(c)))) ++missing;
    }
  }
  return missing;
}

}  // namespace posenc::lab
