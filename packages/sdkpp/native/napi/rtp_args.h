#pragma once

#include <napi.h>

#include <cstdint>

#include "core/rtp/result.h"
#include "core/rtp/rtp_header.h"
#include "core/rtp/transport_cryptor.h"

namespace sdkpp::addon {

// The indices of the Uint32Array that open() and parseRtpPacket() fill, so that a packet costs no JS
// object on the native side. src/media/addon/types.ts (RTP_INFO) lists the same layout.
enum RtpInfoIndex : uint32_t {
    kInfoNonce = 0,
    kInfoBodySize,
    kInfoExtensionOffset,
    kInfoExtensionSize,
    kInfoPayloadOffset,
    kInfoPayloadSize,
    kInfoMarker,
    kInfoPayloadType,
    kInfoSequence,
    kInfoTimestamp,
    kInfoSsrc,
    kInfoHasExtension,
    kInfoExtensionProfile,
    kInfoExtensionWords,
    kInfoPaddingSize,
    kInfoCsrcCount,
    kInfoCsrcs,
    kInfoSize = kInfoCsrcs + rtp::kMaxCsrcs,
};

// A header from `{marker, payloadType, sequence, timestamp, ssrc, csrcs, extensionProfile, paddingSize}`
// (extensionProfile null for none); `extensionBodySize` gives extensionWords. Wrong types throw
// ERR_INVALID_ARG_TYPE; out-of-range numbers throw a RangeError ERR_RTP_INVALID_HEADER.
rtp::RtpHeader RtpHeaderArg(const Napi::CallbackInfo& info, size_t index, size_t extensionBodySize);

// A caller-provided Uint32Array of at least kInfoSize entries, else ERR_INVALID_ARG_TYPE / a RangeError.
Napi::Uint32Array InfoArg(const Napi::CallbackInfo& info, size_t index);

// Fills `out` from a parsed header and the offsets around it.
void FillInfo(Napi::Uint32Array out,
              const rtp::RtpHeader& header,
              uint32_t nonce,
              size_t bodySize,
              size_t extensionOffset,
              size_t extensionSize,
              size_t payloadOffset,
              size_t payloadSize);

// An integer in [min, max] from argument `index`; otherwise ERR_INVALID_ARG_TYPE or a RangeError with
// `rangeCode`.
uint32_t IntegerArg(const Napi::CallbackInfo& info,
                    size_t index,
                    const char* name,
                    uint32_t max,
                    const char* rangeCode);

// A result as the number the JS side expects: 0 for kOk, otherwise the negated code.
inline int32_t Negated(rtp::Result result)
{
    return -static_cast<int32_t>(result);
}

} // namespace sdkpp::addon
