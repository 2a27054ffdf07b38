#pragma once

#include <cstdint>

namespace sdkpp::audio {

// Counts the heap allocations made by this thread, for the no-allocation-per-frame test. The build links
// the addon with `-Wl,--wrap=` for operator new, new[] and malloc/calloc/realloc (Linux, and Windows when
// cross-built with MinGW-w64: the exact lists head alloc_counter.cc) and defines SDKPP_COUNT_ALLOCATIONS;
// the wrappers add one to a per-thread counter and forward. The counter is a thread-local integer (an OS
// TLS slot on Windows), so counting costs a few instructions per allocation.
bool AllocationCountingAvailable() noexcept;
uint64_t AllocationCount() noexcept;

} // namespace sdkpp::audio
