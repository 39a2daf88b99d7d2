// Umbrella header: every family of the core. Pure maths, no DOM, no Emscripten.
#pragma once

#include "alibi.hpp"
#include "alibi_block.hpp"
#include "attention.hpp"
#include "binned_attention.hpp"
#include "errors.hpp"
#include "family_attention.hpp"
#include "learned.hpp"
#include "limits.hpp"
#include "rope.hpp"
#include "shaw.hpp"
#include "sinusoidal.hpp"
#include "t5.hpp"
#include "transformer_xl.hpp"
#include "vision.hpp"
