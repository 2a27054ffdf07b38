#include "core/audio/alloc_counter.h"

#include <cstddef>
#include <new>

namespace sdkpp::audio {

#ifdef SDKPP_COUNT_ALLOCATIONS

namespace {
thread_local uint64_t tAllocations = 0;
} // namespace

bool AllocationCountingAvailable() noexcept
{
    return true;
}

uint64_t AllocationCount() noexcept
{
    return tAllocations;
}

} // namespace sdkpp::audio

// The linker sends every call to X in the addon's objects to __wrap_X, and __real_X to the original.
extern "C" {
void* __real__Znwm(size_t size);
void* __real__Znam(size_t size);
void* __real__ZnwmRKSt9nothrow_t(size_t size, const std::nothrow_t& tag) noexcept;
void* __real__ZnamRKSt9nothrow_t(size_t size, const std::nothrow_t& tag) noexcept;
void* __real_malloc(size_t size);
void* __real_calloc(size_t count, size_t size);
void* __real_realloc(void* pointer, size_t size);

void* __wrap__Znwm(size_t size)
{
    ++sdkpp::audio::tAllocations;
    return __real__Znwm(size);
}
void* __wrap__Znam(size_t size)
{
    ++sdkpp::audio::tAllocations;
    return __real__Znam(size);
}
void* __wrap__ZnwmRKSt9nothrow_t(size_t size, const std::nothrow_t& tag) noexcept
{
    ++sdkpp::audio::tAllocations;
    return __real__ZnwmRKSt9nothrow_t(size, tag);
}
void* __wrap__ZnamRKSt9nothrow_t(size_t size, const std::nothrow_t& tag) noexcept
{
    ++sdkpp::audio::tAllocations;
    return __real__ZnamRKSt9nothrow_t(size, tag);
}
void* __wrap_malloc(size_t size)
{
    ++sdkpp::audio::tAllocations;
    return __real_malloc(size);
}
void* __wrap_calloc(size_t count, size_t size)
{
    ++sdkpp::audio::tAllocations;
    return __real_calloc(count, size);
}
void* __wrap_realloc(void* pointer, size_t size)
{
    ++sdkpp::audio::tAllocations;
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
