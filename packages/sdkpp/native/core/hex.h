#pragma once

#include <cstddef>
#include <string_view>

#include "core/span.h"

namespace sdkpp {

inline constexpr size_t kInvalidHex = static_cast<size_t>(-1);

// Decodes lower- or upper-case hex into `out`. Returns the byte count, or kInvalidHex when the text has an
// odd length or a non-hex character, or does not fit in `out`.
size_t DecodeHex(std::string_view hex, MutableByteView out) noexcept;

} // namespace sdkpp
