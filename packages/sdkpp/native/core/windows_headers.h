#pragma once

// Windows' headers as the Windows-only files of native/core take them (include this only under _WIN32 or in
// a *_win.cc file). WIN32_LEAN_AND_MEAN keeps windows.h from pulling in the old winsock.h, which collides with
// winsock2.h, and NOMINMAX keeps its min and max macros from breaking std::min and std::max. winsock2.h comes
// before windows.h, the order Winsock asks for.
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>
