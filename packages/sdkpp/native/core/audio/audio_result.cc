#include "core/audio/audio_result.h"

namespace sdkpp::audio {

std::string_view AudioResultName(AudioResult result) noexcept
{
    switch (result) {
    case AudioResult::kOk:
        return "OK";
    case AudioResult::kInvalidPacket:
        return "ERR_OPUS_INVALID_PACKET";
    case AudioResult::kBufferTooSmall:
        return "ERR_AUDIO_BUFFER_TOO_SMALL";
    case AudioResult::kBadFrameSize:
        return "ERR_AUDIO_BAD_FRAME_SIZE";
    case AudioResult::kBadArgument:
        return "ERR_AUDIO_BAD_ARGUMENT";
    case AudioResult::kCodecUnavailable:
        return "ERR_OPUS_UNAVAILABLE";
    case AudioResult::kCodecError:
        return "ERR_OPUS_INTERNAL";
    case AudioResult::kLatePacket:
        return "ERR_JITTER_LATE_PACKET";
    case AudioResult::kDuplicatePacket:
        return "ERR_JITTER_DUPLICATE_PACKET";
    case AudioResult::kPacketTooLarge:
        return "ERR_JITTER_PACKET_TOO_LARGE";
    case AudioResult::kTooManyUsers:
        return "ERR_AUDIO_TOO_MANY_USERS";
    }
    return "ERR_AUDIO_UNKNOWN";
}

} // namespace sdkpp::audio
