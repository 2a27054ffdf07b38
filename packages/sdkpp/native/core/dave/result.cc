#include "core/dave/result.h"

namespace sdkpp::dave {

std::string_view ResultName(Result result) noexcept
{
    switch (result) {
    case Result::kOk:
        return "OK";
    case Result::kPassthrough:
        return "PASSTHROUGH";
    case Result::kFrameTooShort:
        return "ERR_DAVE_FRAME_TOO_SHORT";
    case Result::kBadMarker:
        return "ERR_DAVE_BAD_MARKER";
    case Result::kBadSupplementalSize:
        return "ERR_DAVE_BAD_SUPPLEMENTAL_SIZE";
    case Result::kBadNonce:
        return "ERR_DAVE_BAD_NONCE";
    case Result::kBadRanges:
        return "ERR_DAVE_BAD_RANGES";
    case Result::kAuthenticationFailed:
        return "ERR_DAVE_AUTHENTICATION_FAILED";
    case Result::kReplayedNonce:
        return "ERR_DAVE_REPLAYED_NONCE";
    case Result::kGenerationTooFarAhead:
        return "ERR_DAVE_GENERATION_TOO_FAR_AHEAD";
    case Result::kKeyExpired:
        return "ERR_DAVE_KEY_EXPIRED";
    case Result::kNoKey:
        return "ERR_DAVE_NO_KEY";
    case Result::kOutputTooSmall:
        return "ERR_DAVE_OUTPUT_TOO_SMALL";
    case Result::kOverlappingBuffers:
        return "ERR_DAVE_OVERLAPPING_BUFFERS";
    case Result::kBackendError:
        return "ERR_DAVE_BACKEND";
    }
    return "ERR_DAVE_UNKNOWN";
}

} // namespace sdkpp::dave
