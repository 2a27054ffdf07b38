// The transport thread's priority on Windows. The build compiles this file on Windows only
// (thread_priority.h). avrt and winmm are loaded at run time, so the addon links neither.
#include "core/transport/thread_priority.h"

#include "core/windows_headers.h"

#include <avrt.h>
#include <mmsystem.h>

namespace sdkpp::transport {
namespace {

// GetProcAddress's result as the function it is. Going through a function type without parameters is the
// cast compilers accept between unrelated function pointer types.
template <typename Function>
Function Symbol(HMODULE module, const char* name) noexcept
{
    const FARPROC found = module != nullptr ? ::GetProcAddress(module, name) : nullptr;
    return reinterpret_cast<Function>(reinterpret_cast<void (*)()>(found));
}

// Looked up once and kept for the process (many transports may start and stop). Only from System32, so
// that a DLL of the same name beside the host executable (a game's folder) is never the one loaded.
HMODULE LoadSystemLibrary(const wchar_t* name) noexcept
{
    return ::LoadLibraryExW(name, nullptr, LOAD_LIBRARY_SEARCH_SYSTEM32);
}

struct Mmcss {
    decltype(&::AvSetMmThreadCharacteristicsW) join = nullptr;
    decltype(&::AvRevertMmThreadCharacteristics) leave = nullptr;
};

const Mmcss& LoadMmcss() noexcept
{
    static const Mmcss mmcss = [] {
        const HMODULE avrt = LoadSystemLibrary(L"avrt.dll");
        Mmcss loaded;
        loaded.join = Symbol<decltype(loaded.join)>(avrt, "AvSetMmThreadCharacteristicsW");
        loaded.leave = Symbol<decltype(loaded.leave)>(avrt, "AvRevertMmThreadCharacteristics");
        return loaded.join != nullptr && loaded.leave != nullptr ? loaded : Mmcss{};
    }();
    return mmcss;
}

struct TimerResolution {
    decltype(&::timeBeginPeriod) begin = nullptr;
    decltype(&::timeEndPeriod) end = nullptr;
};

const TimerResolution& LoadTimerResolution() noexcept
{
    static const TimerResolution timer = [] {
        const HMODULE winmm = LoadSystemLibrary(L"winmm.dll");
        TimerResolution loaded;
        loaded.begin = Symbol<decltype(loaded.begin)>(winmm, "timeBeginPeriod");
        loaded.end = Symbol<decltype(loaded.end)>(winmm, "timeEndPeriod");
        return loaded.begin != nullptr && loaded.end != nullptr ? loaded : TimerResolution{};
    }();
    return timer;
}

// What the thread was granted, given back when it ends. The transport loop (transport_loop.cc) raises its
// priority once at the start and simply returns at the end, so the undoing hangs on a thread_local's
// destructor, which runs at thread exit.
class ThreadBoost {
public:
    ThreadBoost() noexcept = default;
    ThreadBoost(const ThreadBoost&) = delete;
    ThreadBoost& operator=(const ThreadBoost&) = delete;
    ~ThreadBoost()
    {
        if (mmcss_ != nullptr) {
            LoadMmcss().leave(mmcss_);
        }
        if (fineTimer_) {
            LoadTimerResolution().end(1);
        }
    }

    ThreadPriority Raise() noexcept
    {
        if (!asked_) {
            asked_ = true;
            AskFineTimer();
            granted_ = AskPriority();
        }
        return granted_;
    }

private:
    // The loop waits for each 20 ms deadline with WSAPoll, whose timeout ends on a timer interrupt. At
    // Windows' default timer period (15.6 ms) a wait of a few milliseconds can last 15 ms, so ticks would
    // leave up to 15 ms late; at 1 ms they leave at most about 1 ms late. Windows counts these requests per
    // process and drops this one at thread end, so the finer (costlier) timer lasts only while a
    // transport runs.
    void AskFineTimer() noexcept
    {
        const TimerResolution& timer = LoadTimerResolution();
        fineTimer_ = timer.begin != nullptr && timer.begin(1) == TIMERR_NOERROR;
    }

    // MMCSS first, as Windows' own audio engines do: the "Pro Audio" task runs the thread in the real-time
    // band, yet MMCSS keeps a share of each core for other threads, so even a spinning transport could not
    // hang the machine. Without the service (some Server editions) the top of the normal class is what any
    // process may take.
    ThreadPriority AskPriority() noexcept
    {
        const Mmcss& mmcss = LoadMmcss();
        if (mmcss.join != nullptr) {
            DWORD taskIndex = 0;
            mmcss_ = mmcss.join(L"Pro Audio", &taskIndex);
            if (mmcss_ != nullptr) {
                return ThreadPriority::kMmcss;
            }
        }
        if (::SetThreadPriority(::GetCurrentThread(), THREAD_PRIORITY_TIME_CRITICAL)) {
            return ThreadPriority::kTimeCritical;
        }
        return ThreadPriority::kNormal;
    }

    bool asked_ = false;
    bool fineTimer_ = false;
    HANDLE mmcss_ = nullptr;
    ThreadPriority granted_ = ThreadPriority::kNormal;
};

thread_local ThreadBoost tBoost;

} // namespace

ThreadPriority RaiseThreadPriority() noexcept
{
    return tBoost.Raise();
}

} // namespace sdkpp::transport
