// The transport thread's priority on Windows: not written yet, as the transport itself is not built there
// (udp_socket_win.cc), so nothing calls this. The build compiles this file on Windows only
// (thread_priority.h).
#include "core/transport/thread_priority.h"

namespace sdkpp::transport {

ThreadPriority RaiseThreadPriority() noexcept
{
    return ThreadPriority::kNormal;
}

} // namespace sdkpp::transport
