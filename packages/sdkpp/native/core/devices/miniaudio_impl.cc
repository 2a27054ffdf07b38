// miniaudio's implementation, compiled once into the addon when scripts/miniaudio-config.mjs found the
// header (binding.gyp defines SDKPP_HAVE_MINIAUDIO and puts it on the -isystem path, so its own warnings
// do not fail this repository's -Werror build).
#if defined(SDKPP_HAVE_MINIAUDIO)
#define MINIAUDIO_IMPLEMENTATION
#include "core/devices/miniaudio_config.h"
#endif
