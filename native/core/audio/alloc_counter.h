#pragma once

#include <cstdint>

namespace sdkpp::audio {

// Counts the heap allocations made by this thread, for the no-allocation-per-frame test. The build links
// the addon with `-Wl,--wrap=` for operator new, new[] and malloc/calloc/realloc (Linux, binding.gyp),
// and defines SDKPP_COUNT_ALLOCATIONS; the wrappers add one to a thread-local counter and forward. The
// counter is a plain thread-local integer, so counting costs one increment per allocation.
bool AllocationCountingAvailable() noexcept;
uint64_t AllocationCount() noexcept;

} // namespace sdkpp::audio
