// Umbrella header: every family of the core. Pure maths, no DOM, no Emscripten.
#pragma once

#include "alibi.hpp"
#include "attention.hpp"
#include "errors.hpp"
#include "learned.hpp"
#include "limits.hpp"
#include "relative.hpp"
#include "rope.hpp"
#include "sinusoidal.hpp"
