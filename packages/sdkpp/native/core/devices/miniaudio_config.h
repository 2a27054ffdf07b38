#pragma once

// The one place miniaudio's build options are set: miniaudio_impl.cc (the library) and system_audio.cc
// (its user) must agree on them. Only the device I/O is compiled; no decoders, no engine, and no null
// backend, so that a machine without sound reports no devices instead of pretending to have one.
#define MA_NO_DECODING
#define MA_NO_ENCODING
#define MA_NO_GENERATION
#define MA_NO_RESOURCE_MANAGER
#define MA_NO_NODE_GRAPH
#define MA_NO_ENGINE
#define MA_NO_NULL
#define MA_NO_WAV
#define MA_NO_FLAC
#define MA_NO_MP3
// The backends are loaded with dlopen at run time (the default, kept explicit here): the addon links no
// sound library, so it loads on machines that have none.
#undef MA_NO_RUNTIME_LINKING

#include <miniaudio.h>
