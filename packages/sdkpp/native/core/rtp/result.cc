#include "core/rtp/result.h"

namespace sdkpp::rtp {

std::string_view ResultName(Result result) noexcept
{
    switch (result) {
    case Result::kOk:
        return "OK";
    case Result::kTruncatedHeader:
        return "ERR_RTP_TRUNCATED_HEADER";
    case Result::kBadVersion:
        return "ERR_RTP_BAD_VERSION";
    case Result::kCsrcPastEnd:
        return "ERR_RTP_CSRC_PAST_END";
    case Result::kExtensionPastEnd:
        return "ERR_RTP_EXTENSION_PAST_END";
    case Result::kBadPadding:
        return "ERR_RTP_BAD_PADDING";
    case Result::kPacketTooShort:
        return "ERR_RTP_PACKET_TOO_SHORT";
    case Result::kAuthenticationFailed:
        return "ERR_RTP_AUTHENTICATION_FAILED";
    case Result::kOutputTooSmall:
        return "ERR_RTP_OUTPUT_TOO_SMALL";
    case Result::kInvalidHeader:
        return "ERR_RTP_INVALID_HEADER";
    case Result::kUnsupportedMode:
        return "ERR_RTP_UNSUPPORTED_MODE";
    case Result::kInvalidKeySize:
        return "ERR_RTP_INVALID_KEY_SIZE";
    case Result::kOverlappingBuffers:
        return "ERR_RTP_OVERLAPPING_BUFFERS";
    case Result::kBackendError:
        return "ERR_RTP_BACKEND";
    case Result::kBadDiscoveryType:
        return "ERR_IP_DISCOVERY_BAD_TYPE";
    case Result::kBadDiscoveryLength:
        return "ERR_IP_DISCOVERY_BAD_LENGTH";
    case Result::kBadDiscoveryAddress:
        return "ERR_IP_DISCOVERY_BAD_ADDRESS";
    }
    return "ERR_RTP_UNKNOWN";
}

} // namespace sdkpp::rtp
