// The transport thread's priority on POSIX systems (Linux, macOS). The build compiles this file everywhere
// but Windows (thread_priority.h).
#include "core/transport/thread_priority.h"

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#if defined(__linux__)
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace sdkpp::transport {

// Best effort, in the order a voice client would try: real-time FIFO (permitted to root or with
// CAP_SYS_NICE / an RLIMIT_RTPRIO), else nice -10 for this thread, else the default.
ThreadPriority RaiseThreadPriority() noexcept
{
#if defined(__linux__)
    // Timer slack: wake at the deadline, not up to 50 us after it.
    ::prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
#endif
    sched_param param{};
    param.sched_priority = 10; // low among real-time priorities: above every normal thread, below the kernel's
    if (::pthread_setschedparam(::pthread_self(), SCHED_FIFO, &param) == 0) {
        return ThreadPriority::kRealtime;
    }
#if defined(__linux__)
    // On Linux a thread is a task with its own nice value.
    if (::setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), -10) == 0) {
        return ThreadPriority::kRaisedNice;
    }
#endif
    return ThreadPriority::kNormal;
}

} // namespace sdkpp::transport
