// The OpenGL header of each platform: WebGL2 (OpenGL ES 3.0) in the browser, desktop GL for the
// native build. The Lab itself only needs textures and glReadPixels (OpenGL 1.1 entry points).
#pragma once

#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
#include <GL/gl.h>
#endif
