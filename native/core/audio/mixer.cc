#include "core/audio/mixer.h"

#include <cmath>

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
        for (size_t i = 0; i < n; ++i) {
            bool limited = false;
            out[base + i] = LimitSample(sum[i], &limited);
            limitedCount += limited ? 1 : 0;
        }
    }
    return limitedCount;
}

} // namespace sdkpp::audio
