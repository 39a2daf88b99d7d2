// The Lab's font: DejaVu Sans (Debian's fonts-dejavu-core) cut down at build time to the
// scripts of the page's languages (Latin with its extensions, Cyrillic, and the Greek letters
// and signs the catalogs use), embedded in the program by lab.cmake. Dear ImGui's own font is
// ASCII only and would draw Russian as '?'.
#pragma once

namespace posenc::lab {

// Adds the font to Dear ImGui's atlas at `pixels` and makes it the default; false (Dear ImGui's
// own font stays) when the build had no font to embed. Call before the first frame.
bool loadFont(float pixels);

}  // namespace posenc::lab
