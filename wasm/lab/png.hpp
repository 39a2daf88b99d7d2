// A minimal PNG writer for the native Lab's --screenshot: 8-bit RGBA, zlib "stored" (uncompressed)
// deflate blocks, so it needs no compression library. Files are large but any viewer reads them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace posenc::lab {

// rgba: width * height * 4 bytes, top row first. Returns false when the file cannot be written.
bool writePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba);

}  // namespace posenc::lab
