#pragma once

#include <cstddef>
#include <cstdint>

#include "core/span.h"

namespace sdkpp::audio {

// Mixes `count` speakers' 20 ms frames into `out`. `frames` holds the frames one after another
// (count × out.size() samples) and `gains` one linear gain per speaker. The sum goes through a soft
// limiter instead of wrapping or hard-clipping: below the knee (¾ of full scale) samples pass unchanged,
// above it they are compressed smoothly toward full scale, x → knee + r·o / (o + r) with o the overshoot
// and r the room left, so 25 loud speakers stay within int16 without the harsh edges of clipping.
// Returns how many samples the limiter touched. Allocates nothing; the sum uses a fixed stack buffer.
size_t MixFrames(Span<const int16_t> frames,
                 Span<const float> gains,
                 size_t count,
                 Span<int16_t> out) noexcept;

// One sample through the limiter (exposed for tests and for capture gain).
int16_t LimitSample(float value, bool* limited) noexcept;

inline constexpr float kLimiterKnee = 24576.0F; // 0.75 × 32768

} // namespace sdkpp::audio
