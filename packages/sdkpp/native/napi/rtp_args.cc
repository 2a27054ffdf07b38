#include "napi/rtp_args.h"

#include <cmath>
#include <string>

#include "napi/args.h"
#include "napi/errors.h"

namespace sdkpp::addon {
namespace {

constexpr const char kInvalidHeaderCode[] = "ERR_RTP_INVALID_HEADER";

// Numbers only; NaN, fractions and out-of-range values are refused rather than truncated.
uint32_t Integer(Napi::Env env,
                 const Napi::Value& value,
                 const std::string& name,
                 uint32_t max,
                 const char* rangeCode)
{
    if (!value.IsNumber()) {
        ThrowError(env, ErrorKind::kTypeError, kInvalidArgTypeCode,
                   "The \"" + name + "\" field must be a number");
    }
    const double number = value.As<Napi::Number>().DoubleValue();
    if (!(number >= 0) || number > static_cast<double>(max) || std::floor(number) != number) {
        ThrowError(env, ErrorKind::kRangeError, rangeCode,
                   "The \"" + name + "\" field must be an integer from 0 to " + std::to_string(max));
    }
    return static_cast<uint32_t>(number);
}

} // namespace

uint32_t IntegerArg(const Napi::CallbackInfo& info,
                    size_t index,
                    const char* name,
                    uint32_t max,
                    const char* rangeCode)
{
    return Integer(info.Env(), info[index], name, max, rangeCode);
}

rtp::RtpHeader RtpHeaderArg(const Napi::CallbackInfo& info, size_t index, size_t extensionBodySize)
{
    const Napi::Env env = info.Env();
    if (!info[index].IsObject()) {
        ThrowError(env, ErrorKind::kTypeError, kInvalidArgTypeCode,
                   "The \"header\" argument must be an object");
    }
    const auto object = info[index].As<Napi::Object>();
    rtp::RtpHeader header;
    header.marker = object.Get("marker").ToBoolean().Value();
    const auto field = [&](const char* name, uint32_t max) {
        return Integer(env, object.Get(name), name, max, kInvalidHeaderCode);
    };
    // Each value was checked against its field's maximum, so the narrowing casts keep every bit.
    header.payloadType = static_cast<uint8_t>(field("payloadType", 127));
    header.sequence = static_cast<uint16_t>(field("sequence", 0xFFFF));
    header.timestamp = field("timestamp", 0xFFFFFFFF);
    header.ssrc = field("ssrc", 0xFFFFFFFF);
    header.paddingSize = static_cast<uint8_t>(field("paddingSize", 255));
    const Napi::Value csrcs = object.Get("csrcs");
    if (!csrcs.IsArray()) {
        ThrowError(env, ErrorKind::kTypeError, kInvalidArgTypeCode, "The \"csrcs\" field must be an array");
    }
    const auto list = csrcs.As<Napi::Array>();
    if (list.Length() > rtp::kMaxCsrcs) {
        ThrowError(env, ErrorKind::kRangeError, kInvalidHeaderCode, "An RTP header holds at most 15 CSRCs");
    }
    header.csrcCount = static_cast<uint8_t>(list.Length());
    for (uint32_t i = 0; i < list.Length(); ++i) {
        header.csrcs[i] =
          Integer(env, list.Get(i), "csrcs[" + std::to_string(i) + "]", 0xFFFFFFFF, kInvalidHeaderCode);
    }
    const Napi::Value profile = object.Get("extensionProfile");
    if (!profile.IsNull() && !profile.IsUndefined()) {
        if (extensionBodySize % 4 != 0 || extensionBodySize / 4 > 0xFFFF) {
            ThrowError(env, ErrorKind::kRangeError, kInvalidHeaderCode,
                       "An extension body must be whole 32-bit words, at most 65535 of them");
        }
        header.hasExtension = true;
        header.extensionProfile =
          static_cast<uint16_t>(Integer(env, profile, "extensionProfile", 0xFFFF, kInvalidHeaderCode));
        header.extensionWords = static_cast<uint16_t>(extensionBodySize / 4);
    } else if (extensionBodySize != 0) {
        ThrowError(env, ErrorKind::kRangeError, kInvalidHeaderCode,
                   "An extension body needs an extension profile");
    }
    return header;
}

Napi::Uint32Array InfoArg(const Napi::CallbackInfo& info, size_t index)
{
    const Napi::Value value = info[index];
    if (!value.IsTypedArray() || value.As<Napi::TypedArray>().TypedArrayType() != napi_uint32_array) {
        ThrowError(info.Env(), ErrorKind::kTypeError, kInvalidArgTypeCode,
                   "The \"info\" argument must be a Uint32Array");
    }
    const auto array = value.As<Napi::Uint32Array>();
    if (array.ElementLength() < kInfoSize) {
        ThrowError(info.Env(), ErrorKind::kRangeError, "ERR_RTP_OUTPUT_TOO_SMALL",
                   "The \"info\" argument needs " + std::to_string(kInfoSize) + " entries");
    }
    return array;
}

void FillInfo(Napi::Uint32Array out,
              const rtp::RtpHeader& header,
              uint32_t nonce,
              size_t bodySize,
              size_t extensionOffset,
              size_t extensionSize,
              size_t payloadOffset,
              size_t payloadSize)
{
    // Sizes come from buffers, whose lengths fit in 32 bits on the paths that call this.
    const auto u32 = [](size_t value) { return static_cast<uint32_t>(value); };
    uint32_t* data = out.Data();
    data[kInfoNonce] = nonce;
    data[kInfoBodySize] = u32(bodySize);
    data[kInfoExtensionOffset] = u32(extensionOffset);
    data[kInfoExtensionSize] = u32(extensionSize);
    data[kInfoPayloadOffset] = u32(payloadOffset);
    data[kInfoPayloadSize] = u32(payloadSize);
    data[kInfoMarker] = header.marker ? 1 : 0;
    data[kInfoPayloadType] = header.payloadType;
    data[kInfoSequence] = header.sequence;
    data[kInfoTimestamp] = header.timestamp;
    data[kInfoSsrc] = header.ssrc;
    data[kInfoHasExtension] = header.hasExtension ? 1 : 0;
    data[kInfoExtensionProfile] = header.extensionProfile;
    data[kInfoExtensionWords] = header.extensionWords;
    data[kInfoPaddingSize] = header.paddingSize;
    data[kInfoCsrcCount] = header.csrcCount;
    for (size_t i = 0; i < rtp::kMaxCsrcs; ++i) {
        data[kInfoCsrcs + i] = i < header.csrcCount ? header.csrcs[i] : 0;
    }
}

} // namespace sdkpp::addon
