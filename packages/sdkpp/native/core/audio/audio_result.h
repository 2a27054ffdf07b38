#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/result_counters.h"

namespace sdkpp::audio {

// Every outcome of the audio pipeline's per-frame calls. Bad input from the network (a malformed Opus
// packet, a late or duplicated RTP packet) is one of these codes and is counted, never an exception.
// Values are stable: they cross the addon boundary as negated numbers, and src/media/audio/types.ts lists
// the same names in the same order (AUDIO_RESULTS).
enum class AudioResult : uint8_t {
    kOk = 0,
    // Not a decodable Opus packet: empty, a bad frame count or length, or libopus refused it.
    kInvalidPacket,
    // The caller's output buffer cannot hold the packet or the frame.
    kBufferTooSmall,
    // PCM that is not exactly one 20 ms frame (960 samples per channel, 2 channels interleaved).
    kBadFrameSize,
    // A setting out of range (a gain that is negative or not finite, a bitrate libopus refuses).
    kBadArgument,
    // This build has no Opus codec (the native addon was built without libopus).
    kCodecUnavailable,
    // libopus failed for a reason other than the input.
    kCodecError,
    // An RTP packet whose sequence number was already played or skipped.
    kLatePacket,
    // An RTP packet whose sequence number is already in the jitter buffer.
    kDuplicatePacket,
    // A payload larger than a jitter buffer slot (kMaxOpusPacketSize).
    kPacketTooLarge,
    // The per-user gain table is full.
    kTooManyUsers,
};

inline constexpr size_t kAudioResultCount = static_cast<size_t>(AudioResult::kTooManyUsers) + 1;

// The stable name of a result, e.g. "ERR_OPUS_INVALID_PACKET" ("OK" for kOk).
std::string_view AudioResultName(AudioResult result) noexcept;

// A result as the number the JS side sees: 0 for kOk, otherwise the negated code.
inline int32_t NegatedAudioResult(AudioResult result) noexcept
{
    return -static_cast<int32_t>(result);
}

// How many times each result occurred; the owner is single-threaded.
using AudioCounters = ResultCounters<AudioResult, kAudioResultCount>;

} // namespace sdkpp::audio
