#pragma once

#include <cstddef>
#include <cstdint>

#include "core/span.h"

namespace sdkpp::dave {

// Unsigned LEB128, the varint of the DAVE footer: 7 bits per byte, low group first, high bit = more.
inline constexpr size_t kMaxLeb128Size = 10; // a full uint64_t

// Bytes needed to write `value`.
size_t Leb128Size(uint64_t value) noexcept;

// Writes `value` at out[0..]; the caller has checked Leb128Size(value) fits. Returns the bytes written.
size_t WriteLeb128(uint64_t value, uint8_t* out) noexcept;

// Reads one value from `in` at `*offset`, advancing it. False (and `*offset` unchanged) when the bytes
// end before the last group, or the value does not fit 64 bits; never reads past `in`.
bool ReadLeb128(ByteView in, size_t* offset, uint64_t* value) noexcept;

} // namespace sdkpp::dave
