#pragma once

#include "core/transport/voice_transport.h"

namespace sdkpp::transport {

// Asks the operating system to run the calling thread ahead of ordinary ones, best effort, as audio
// threads do; returns what it got. One implementation per OS, picked by the build from the file name
// (as udp_socket.h's): thread_priority_posix.cc and thread_priority_win.cc.
ThreadPriority RaiseThreadPriority() noexcept;

} // namespace sdkpp::transport
