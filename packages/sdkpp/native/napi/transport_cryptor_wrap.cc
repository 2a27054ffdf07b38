#include "napi/transport_cryptor_wrap.h"

#include <string>

#include "napi/args.h"
#include "napi/errors.h"
#include "napi/rtp_args.h"
#include "napi/reports.h"

namespace sdkpp::addon {
namespace {

MutableByteView MutableBytesArg(const Napi::CallbackInfo& info, size_t index, const char* name)
{
    const ByteView view = BytesArg(info, index, name);
    // BytesArg accepted a Uint8Array, whose memory is writable.
    return {const_cast<uint8_t*>(view.data()), view.size()};
}

} // namespace

Napi::Function TransportCryptorWrap::Define(Napi::Env env)
{
    return DefineClass(env, "TransportCryptor",
                       {
                         InstanceMethod<&TransportCryptorWrap::Seal>("seal"),
                         InstanceMethod<&TransportCryptorWrap::Open>("open"),
                         InstanceMethod<&TransportCryptorWrap::Stats>("stats"),
                       });
}

TransportCryptorWrap::TransportCryptorWrap(const Napi::CallbackInfo& info)
  : Napi::ObjectWrap<TransportCryptorWrap>(info)
{
    const Napi::Env env = info.Env();
    if (!info[0].IsString()) {
        ThrowError(env, ErrorKind::kTypeError, kInvalidArgTypeCode, "The \"mode\" argument must be a string");
    }
    const std::string name = info[0].As<Napi::String>().Utf8Value();
    rtp::TransportMode mode{};
    if (!rtp::ParseTransportMode(name, &mode)) {
        ThrowError(env, ErrorKind::kTypeError, "ERR_RTP_UNSUPPORTED_MODE",
                   "Unsupported transport encryption mode; this build supports 'aead_aes256_gcm_rtpsize', "
                   "'aead_xchacha20_poly1305_rtpsize'");
    }
    const ByteView key = BytesArg(info, 1, "key");
    rtp::Result result = rtp::Result::kBackendError;
    cryptor_ = rtp::TransportCryptor::Create(mode, key, &result);
    if (!cryptor_) {
        if (result == rtp::Result::kInvalidKeySize) {
            ThrowError(env, ErrorKind::kRangeError, "ERR_RTP_INVALID_KEY_SIZE",
                       name + " needs a 32-byte key, got " + std::to_string(key.size()) + " bytes");
        }
        ThrowError(env, ErrorKind::kError, rtp::ResultName(result).data(),
                   name + ": the crypto backend failed");
    }
}

Napi::Value TransportCryptorWrap::Seal(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const ByteView extensionBody = BytesArg(info, 1, "extensionBody");
    const rtp::RtpHeader header = RtpHeaderArg(info, 0, extensionBody.size());
    const ByteView payload = BytesArg(info, 2, "payload");
    const MutableByteView out = MutableBytesArg(info, 3, "out");
    size_t written = 0;
    rtp::Result result = rtp::Result::kOk;
    if (info[4].IsUndefined()) {
        result = cryptor_->SealNext(header, extensionBody, payload, out, &written);
    } else {
        const uint32_t nonce = IntegerArg(info, 4, "nonce", 0xFFFFFFFF, "ERR_RTP_INVALID_HEADER");
        result = cryptor_->Seal(header, extensionBody, payload, nonce, out, &written);
    }
    if (result != rtp::Result::kOk) {
        return Napi::Number::New(env, Negated(result));
    }
    return Napi::Number::New(env, static_cast<double>(written));
}

Napi::Value TransportCryptorWrap::Open(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const ByteView packet = BytesArg(info, 0, "packet");
    const MutableByteView out = MutableBytesArg(info, 1, "out");
    const Napi::Uint32Array fields = InfoArg(info, 2);
    rtp::OpenedPacket opened;
    const rtp::Result result = cryptor_->Open(packet, out, &opened);
    if (result == rtp::Result::kOk) {
        FillInfo(fields, opened.header, opened.nonce, opened.plaintextSize, opened.extensionOffset,
                 opened.extensionSize, opened.payloadOffset, opened.payloadSize);
    }
    return Napi::Number::New(env, Negated(result));
}

Napi::Value TransportCryptorWrap::Stats(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const rtp::PacketCounters& counters = cryptor_->Counters();
    const Napi::Array results = ResultCountArray<rtp::Result>(env, rtp::kResultCount, counters);
    auto stats = Napi::Object::New(env);
    stats.Set("sealed", static_cast<double>(cryptor_->SealedCount()));
    stats.Set("lastNonce", static_cast<double>(cryptor_->LastNonce()));
    stats.Set("results", results);
    return stats;
}

} // namespace sdkpp::addon
