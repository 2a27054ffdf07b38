#include <string>

#include "core/rtp/ip_discovery.h"
#include "core/rtp/result.h"
#include "core/rtp/rtp_header.h"
#include "core/rtp/transport_selftest.h"
#include "napi/args.h"
#include "napi/bindings.h"
#include "napi/errors.h"
#include "napi/rtp_args.h"
#include "napi/reports.h"

namespace sdkpp::addon {

Napi::Value RtpResultNames(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    return ResultNameArray<rtp::Result>(env, rtp::kResultCount, rtp::ResultName);
}

Napi::Value RtpParsePacket(const Napi::CallbackInfo& info)
{
    const ByteView packet = BytesArg(info, 0, "packet");
    const Napi::Uint32Array fields = InfoArg(info, 1);
    rtp::RtpPacketView view;
    const rtp::Result result = rtp::ParseRtpPacket(packet, &view);
    if (result == rtp::Result::kOk) {
        FillInfo(fields, view.header, 0, packet.size(), view.extensionOffset, view.extensionSize,
                 view.payloadOffset, view.payloadSize);
    }
    return Napi::Number::New(info.Env(), Negated(result));
}

Napi::Value RtpWriteHeader(const Napi::CallbackInfo& info)
{
    const uint32_t words = IntegerArg(info, 1, "extensionWords", 0xFFFF, "ERR_RTP_INVALID_HEADER");
    const rtp::RtpHeader header = RtpHeaderArg(info, 0, 4 * static_cast<size_t>(words));
    const ByteView out = BytesArg(info, 2, "out");
    size_t written = 0;
    const rtp::Result result =
      rtp::WriteClearHeader(header, {const_cast<uint8_t*>(out.data()), out.size()}, &written);
    return Napi::Number::New(info.Env(),
                             result == rtp::Result::kOk ? static_cast<double>(written) : Negated(result));
}

Napi::Value IpDiscoveryWrite(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    rtp::IpDiscoveryPacket packet;
    packet.type =
      static_cast<rtp::IpDiscoveryType>(IntegerArg(info, 0, "type", 0xFFFF, "ERR_RTP_INVALID_HEADER"));
    packet.ssrc = IntegerArg(info, 1, "ssrc", 0xFFFFFFFF, "ERR_RTP_INVALID_HEADER");
    if (!info[2].IsString()) {
        ThrowError(env, ErrorKind::kTypeError, kInvalidArgTypeCode,
                   "The \"address\" argument must be a string");
    }
    const std::string address = info[2].As<Napi::String>().Utf8Value();
    packet.port = static_cast<uint16_t>(IntegerArg(info, 3, "port", 0xFFFF, "ERR_RTP_INVALID_HEADER"));
    const ByteView out = BytesArg(info, 4, "out");
    if (address.size() > sizeof(packet.address)) {
        return Napi::Number::New(env, Negated(rtp::Result::kBadDiscoveryAddress));
    }
    address.copy(packet.address, address.size());
    packet.addressSize = address.size();
    size_t written = 0;
    const rtp::Result result =
      rtp::WriteIpDiscovery(packet, {const_cast<uint8_t*>(out.data()), out.size()}, &written);
    return Napi::Number::New(env,
                             result == rtp::Result::kOk ? static_cast<double>(written) : Negated(result));
}

Napi::Value IpDiscoveryParse(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const ByteView bytes = BytesArg(info, 0, "packet");
    rtp::IpDiscoveryPacket packet;
    const rtp::Result result = rtp::ParseIpDiscovery(bytes, &packet);
    if (result != rtp::Result::kOk) {
        return Napi::Number::New(env, Negated(result));
    }
    auto object = Napi::Object::New(env);
    object.Set("type", static_cast<double>(packet.type));
    object.Set("ssrc", static_cast<double>(packet.ssrc));
    object.Set("address", Napi::String::New(env, packet.address, packet.addressSize));
    object.Set("port", static_cast<double>(packet.port));
    return object;
}

Napi::Value TransportSelfTest(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const rtp::TransportSelfTestReport report = rtp::RunTransportSelfTest();
    return SelfTestObject(env, report);
}

} // namespace sdkpp::addon
