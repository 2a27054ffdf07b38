#pragma once

#include <cstddef>
#include <cstdint>

#include "core/opus_silence.h"

namespace sdkpp::audio {

// The platform's voice format (wire-protocols.md §2): Opus at 48 kHz, stereo, one 20 ms frame per packet.
inline constexpr int kSampleRate = 48000;
inline constexpr int kChannels = 2;
inline constexpr size_t kFrameSamplesPerChannel = 960;
// Interleaved 16-bit samples in one frame (L R L R …).
inline constexpr size_t kFrameSamples = kFrameSamplesPerChannel * kChannels;
inline constexpr int kFrameMs = 20;
// RTP timestamp units per frame (the clock is the sample rate).
inline constexpr uint32_t kFrameTimestampStep = 960;
// The largest packet libopus produces for one frame; jitter buffer slots hold this much.
inline constexpr size_t kMaxOpusPacketSize = 1275;
// The longest Opus packet (120 ms) decodes to this many samples per channel.
inline constexpr size_t kMaxPacketSamplesPerChannel = 5760;

// After speech ends the platform expects five kOpusSilenceFrame (core/opus_silence.h), then nothing
// (wire-protocols.md §2.7).
inline constexpr int kSilenceFramesOnStop = 5;

} // namespace sdkpp::audio
