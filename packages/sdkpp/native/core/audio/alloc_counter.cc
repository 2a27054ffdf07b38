// Per-thread allocation counting by wrapping the allocator's symbols at link time (GNU ld's --wrap). A
// build that counts defines SDKPP_COUNT_ALLOCATIONS and links with exactly these options:
//
//   Linux (size_t is unsigned long: "m" in the mangled names; binding.gyp, CMakeLists.txt):
//     -Wl,--wrap=_Znwm,--wrap=_Znam,--wrap=_ZnwmRKSt9nothrow_t,--wrap=_ZnamRKSt9nothrow_t
//     -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc
//   Windows x64, MinGW-w64 g++ with GNU ld (size_t is unsigned long long: "y"):
//     -Wl,--wrap=_Znwy,--wrap=_Znay,--wrap=_ZnwyRKSt9nothrow_t,--wrap=_ZnayRKSt9nothrow_t
//     -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc
//
// macOS's linker and MSVC's have no --wrap: those builds leave SDKPP_COUNT_ALLOCATIONS undefined, and the
// self-tests report that they could not count. A list that does not match the names below fails to link
// (an undefined __real_ symbol) rather than silently counting nothing.
#include "core/audio/alloc_counter.h"

#include <cstddef>
#include <new>
#include <type_traits>

#if defined(SDKPP_COUNT_ALLOCATIONS) && defined(_WIN32)
#include "core/windows_headers.h"

#include <atomic>
#endif

namespace sdkpp::audio {

#ifdef SDKPP_COUNT_ALLOCATIONS

namespace {

#if defined(_WIN32)
static_assert(std::is_same_v<size_t, unsigned long long> && sizeof(void*) == 8,
              "the wrapped names below are Windows x64's (size_t mangled as y)");

// Not thread_local: MinGW emulates it (emutls), and the emulation's first use on a thread calls malloc,
// which is wrapped, which would use the counter again: a recursion until the stack overflows. An OS TLS
// slot never goes through the C runtime's allocator. The slot is taken on first use (a malloc may come
// before any constructor of this file has run) and kept for the process.
std::atomic<DWORD> gSlot{TLS_OUT_OF_INDEXES};

DWORD Slot() noexcept
{
    const DWORD taken = gSlot.load(std::memory_order_acquire);
    if (taken != TLS_OUT_OF_INDEXES) {
        return taken;
    }
    const DWORD fresh = ::TlsAlloc();
    DWORD expected = TLS_OUT_OF_INDEXES;
    if (fresh == TLS_OUT_OF_INDEXES || gSlot.compare_exchange_strong(expected, fresh)) {
        return fresh;
    }
    ::TlsFree(fresh); // another thread was first
    return expected;
}

// TlsGetValue clears the thread's last error when it succeeds: kept, so that an allocation between a
// failed Windows call and its GetLastError() cannot hide the error.
uint64_t Count() noexcept
{
    const DWORD slot = Slot();
    if (slot == TLS_OUT_OF_INDEXES) {
        return 0;
    }
    const DWORD lastError = ::GetLastError();
    const auto count = reinterpret_cast<uintptr_t>(::TlsGetValue(slot));
    ::SetLastError(lastError);
    return count;
}

void SetCount(uint64_t count) noexcept
{
    const DWORD slot = Slot();
    if (slot != TLS_OUT_OF_INDEXES) {
        ::TlsSetValue(slot, reinterpret_cast<void*>(static_cast<uintptr_t>(count)));
    }
}
#else
static_assert(std::is_same_v<size_t, unsigned long>, "the wrapped names below are LP64 Linux's (size_t: m)");

thread_local uint64_t tAllocations = 0;

uint64_t Count() noexcept
{
    return tAllocations;
}

void SetCount(uint64_t count) noexcept
{
    tAllocations = count;
}
#endif

// One allocation for the whole call, whatever `allocate` allocates inside: libstdc++'s operator new calls
// malloc, and where libstdc++ is linked statically (the Windows build) that malloc is wrapped as well.
template <typename Allocate>
void* CountOne(Allocate allocate)
{
    const uint64_t before = Count();
    void* pointer = allocate();
    SetCount(before + 1);
    return pointer;
}

void CountMalloc() noexcept
{
    SetCount(Count() + 1);
}

} // namespace

bool AllocationCountingAvailable() noexcept
{
#if defined(_WIN32)
    return Slot() != TLS_OUT_OF_INDEXES;
#else
    return true;
#endif
}

uint64_t AllocationCount() noexcept
{
    return Count();
}

} // namespace sdkpp::audio

// The linker sends every call to X in the addon's objects to __wrap_X, and __real_X to the original.
extern "C" {
#if defined(_WIN32)
void* __real__Znwy(size_t size);
void* __real__Znay(size_t size);
void* __real__ZnwyRKSt9nothrow_t(size_t size, const std::nothrow_t& tag) noexcept;
void* __real__ZnayRKSt9nothrow_t(size_t size, const std::nothrow_t& tag) noexcept;

void* __wrap__Znwy(size_t size)
{
    return sdkpp::audio::CountOne([size] { return __real__Znwy(size); });
}
void* __wrap__Znay(size_t size)
{
    return sdkpp::audio::CountOne([size] { return __real__Znay(size); });
}
void* __wrap__ZnwyRKSt9nothrow_t(size_t size, const std::nothrow_t& tag) noexcept
{
    return sdkpp::audio::CountOne([size, &tag]() noexcept { return __real__ZnwyRKSt9nothrow_t(size, tag); });
}
void* __wrap__ZnayRKSt9nothrow_t(size_t size, const std::nothrow_t& tag) noexcept
{
    return sdkpp::audio::CountOne([size, &tag]() noexcept { return __real__ZnayRKSt9nothrow_t(size, tag); });
}
#else
void* __real__Znwm(size_t size);
void* __real__Znam(size_t size);
void* __real__ZnwmRKSt9nothrow_t(size_t size, const std::nothrow_t& tag) noexcept;
void* __real__ZnamRKSt9nothrow_t(size_t size, const std::nothrow_t& tag) noexcept;

void* __wrap__Znwm(size_t size)
{
    return sdkpp::audio::CountOne([size] { return __real__Znwm(size); });
}
void* __wrap__Znam(size_t size)
{
    return sdkpp::audio::CountOne([size] { return __real__Znam(size); });
}
void* __wrap__ZnwmRKSt9nothrow_t(size_t size, const std::nothrow_t& tag) noexcept
{
    return sdkpp::audio::CountOne([size, &tag]() noexcept { return __real__ZnwmRKSt9nothrow_t(size, tag); });
}
void* __wrap__ZnamRKSt9nothrow_t(size_t size, const std::nothrow_t& tag) noexcept
{
    return sdkpp::audio::CountOne([size, &tag]() noexcept { return __real__ZnamRKSt9nothrow_t(size, tag); });
}
#endif

void* __real_malloc(size_t size);
void* __real_calloc(size_t count, size_t size);
void* __real_realloc(void* pointer, size_t size);

void* __wrap_malloc(size_t size)
{
    sdkpp::audio::CountMalloc();
    return __real_malloc(size);
}
void* __wrap_calloc(size_t count, size_t size)
{
    sdkpp::audio::CountMalloc();
    return __real_calloc(count, size);
}
void* __wrap_realloc(void* pointer, size_t size)
{
    sdkpp::audio::CountMalloc();
    return __real_realloc(pointer, size);
}
}

#else // another platform or linker: the self-test reports that it could not count.

bool AllocationCountingAvailable() noexcept
{
    return false;
}

uint64_t AllocationCount() noexcept
{
    return 0;
}

} // namespace sdkpp::audio

#endif
