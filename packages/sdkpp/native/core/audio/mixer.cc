#include "core/audio/mixer.h"

#include <cmath>
#include <cstdint>

#include "core/audio/audio_format.h"

namespace sdkpp::audio {

int16_t LimitSample(float value, bool* limited) noexcept
{
    const float magnitude = std::fabs(value);
    if (magnitude <= kLimiterKnee) {
        *limited = false;
        return static_cast<int16_t>(std::lrint(value));
    }
    constexpr float kRoom = 32767.0F - kLimiterKnee;
    const float over = magnitude - kLimiterKnee;
    const float shaped = kLimiterKnee + kRoom * over / (over + kRoom);
    *limited = true;
    const long rounded = std::lrint(shaped);
    return static_cast<int16_t>(value < 0 ? -rounded : rounded);
}

size_t MixFrames(Span<const int16_t> frames,
                 Span<const float> gains,
                 size_t count,
                 Span<int16_t> out) noexcept
{
    // Frames longer than one 120 ms packet are mixed in pieces of this size.
    constexpr size_t kChunk = kFrameSamples;
    const size_t length = out.size();
    if (count > gains.size() || (length != 0 && count > frames.size() / length)) {
        count = 0; // the caller's arrays are shorter than they claim: mix nothing rather than read past them
    }
    size_t limitedCount = 0;
    float sum[kChunk];
    for (size_t base = 0; base < length; base += kChunk) {
        const size_t n = length - base < kChunk ? length - base : kChunk;
        for (size_t i = 0; i < n; ++i) {
            sum[i] = 0.0F;
        }
        for (size_t speaker = 0; speaker < count; ++speaker) {
            const float gain = gains[speaker];
            const int16_t* frame = frames.data() + speaker * length + base;
            for (size_t i = 0; i < n; ++i) {
                sum[i] += static_cast<float>(frame[i]) * gain;
            }
        }
        // Almost always no sample reaches the limiter's knee: then the chunk converts in a loop the compiler
        // vectorizes (adding and taking away 1.5 × 2^23 rounds to nearest even, as lrint does, for any value
        // this small), instead of one out-of-line LimitSample and lrint call per sample.
        constexpr float kRoundToInt = 12582912.0F;
        int overKnee = 0;
        for (size_t i = 0; i < n; ++i) {
            overKnee |= static_cast<int>(sum[i] > kLimiterKnee) | static_cast<int>(sum[i] < -kLimiterKnee);
        }
        if (overKnee == 0) {
            for (size_t i = 0; i < n; ++i) {
                out[base + i] = static_cast<int16_t>(static_cast<int32_t>((sum[i] + kRoundToInt) - kRoundToInt));
            }
            continue;
        }
        for (size_t i = 0; i < n; ++i) {
            bool limited = false;
            out[base + i] = LimitSample(sum[i], &limited);
            limitedCount += limited ? 1 : 0;
        }
    }
    return limitedCount;
}

} // namespace sdkpp::audio
