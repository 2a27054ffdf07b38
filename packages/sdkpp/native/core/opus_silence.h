#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace sdkpp {

// Opus's 3-byte silence frame. The audio side sends five after speech ends (wire-protocols.md §2.7) and
// the jitter buffer treats one as a pause, not a loss; DAVE passes it through unencrypted both ways.
inline constexpr uint8_t kOpusSilenceFrame[3] = {0xF8, 0xFF, 0xFE};

inline bool IsOpusSilenceFrame(const uint8_t* data, size_t size) noexcept
{
    return size == sizeof(kOpusSilenceFrame) &&
           std::memcmp(data, kOpusSilenceFrame, sizeof(kOpusSilenceFrame)) == 0;
}

} // namespace sdkpp
