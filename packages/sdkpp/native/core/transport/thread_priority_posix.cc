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

#include <cerrno>
#include <cstdint>
#endif

namespace sdkpp::transport {
#if defined(__linux__)
namespace {

// The kernel's struct sched_attr (SCHED_ATTR_SIZE_VER0, 48 bytes): glibc before 2.41 has no wrapper.
struct SchedAttr {
    uint32_t size;
    uint32_t schedPolicy;
    uint64_t schedFlags;
    int32_t schedNice;
    uint32_t schedPriority;
    uint64_t schedRuntime;
    uint64_t schedDeadline;
    uint64_t schedPeriod;
};
static_assert(sizeof(SchedAttr) == 48, "struct sched_attr, version 0");

// The slice asked for, the shortest the kernel takes (it clamps to 0.1..100 ms). Measured with bench/pacing.ts
// (unprivileged, another process busy-looping on one of two cores, the JS thread stalling): the 99th
// percentile of the interval error fell from 2 to 4 ms with the default slice to about 0.4 ms.
constexpr uint64_t kSliceNs = 100000;

// Since Linux 6.12 (EEVDF with custom slices), an ordinary thread may ask for a shorter time slice without any
// privilege. Its virtual deadline is then near, so when it wakes it preempts a thread that is using a long
// slice (a busy loop in this process or another) instead of waiting for that slice to end: a wake-up within
// tens of microseconds on a loaded core instead of up to a few milliseconds. Older kernels ignore the field.
bool AskShortSlice(int nice) noexcept
{
    SchedAttr attr{};
    attr.size = sizeof attr;
    attr.schedPolicy = SCHED_OTHER;
    attr.schedNice = nice;
    attr.schedRuntime = kSliceNs;
    return ::syscall(SYS_sched_setattr, 0, &attr, 0U) == 0;
}

} // namespace
#endif

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
    const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
    const bool niced = ::setpriority(PRIO_PROCESS, tid, -10) == 0;
    errno = 0;
    const int nice = ::getpriority(PRIO_PROCESS, tid); // -1 is a valid nice value: errno tells
    const bool shortSlice = errno == 0 && AskShortSlice(nice);
    if (niced) {
        return ThreadPriority::kRaisedNice;
    }
    if (shortSlice) {
        return ThreadPriority::kShortSlice;
    }
#endif
    return ThreadPriority::kNormal;
}

} // namespace sdkpp::transport
