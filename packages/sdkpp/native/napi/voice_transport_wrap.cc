#include "napi/voice_transport_wrap.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "napi/args.h"
#include "napi/audio_args.h"
#include "napi/errors.h"
#include "napi/processing_link_wrap.h"
#include "napi/system_audio_wrap.h"
#include "napi/virtual_audio_wrap.h"

namespace sdkpp::addon {
namespace {

using transport::TransportResult;

const char* ResultCode(TransportResult result) noexcept
{
    switch (result) {
    case TransportResult::kOk: return "OK";
    case TransportResult::kBadArgument: return "ERR_TRANSPORT_BAD_ARGUMENT";
    case TransportResult::kUnsupportedPlatform: return "ERR_TRANSPORT_UNSUPPORTED_PLATFORM";
    case TransportResult::kCodecUnavailable: return "ERR_OPUS_UNAVAILABLE";
    case TransportResult::kSocketError: return "ERR_TRANSPORT_SOCKET";
    case TransportResult::kAlreadyRunning: return "ERR_TRANSPORT_ALREADY_RUNNING";
    case TransportResult::kNotRunning: return "ERR_TRANSPORT_NOT_RUNNING";
    case TransportResult::kQueueFull: return "ERR_TRANSPORT_QUEUE_FULL";
    case TransportResult::kInternalError: return "ERR_TRANSPORT_INTERNAL";
    }
    return "ERR_TRANSPORT_INTERNAL";
}

void Check(Napi::Env env, TransportResult result, const char* what)
{
    if (result != TransportResult::kOk) {
        ThrowError(env, result == TransportResult::kBadArgument ? ErrorKind::kRangeError : ErrorKind::kError,
                   ResultCode(result), std::string(what) + " failed (" + ResultCode(result) + ")");
    }
}

double OptionalNumber(Napi::Object options, const char* name, double fallback, double min, double max)
{
    const Napi::Value value = options.Get(name);
    if (value.IsUndefined()) {
        return fallback;
    }
    if (!value.IsNumber()) {
        ThrowError(options.Env(), ErrorKind::kTypeError, kInvalidArgTypeCode,
                   std::string("The \"") + name + "\" option must be a number");
    }
    const double number = value.As<Napi::Number>().DoubleValue();
    if (!(number >= min && number <= max) || number != static_cast<double>(static_cast<int64_t>(number))) {
        ThrowError(options.Env(), ErrorKind::kRangeError, "ERR_TRANSPORT_BAD_ARGUMENT",
                   std::string("The \"") + name + "\" option is out of range");
    }
    return number;
}

void CopyHost(Napi::Object options, const char* name, char (&out)[64])
{
    const Napi::Value value = options.Get(name);
    if (value.IsUndefined()) {
        return;
    }
    if (!value.IsString()) {
        ThrowError(options.Env(), ErrorKind::kTypeError, kInvalidArgTypeCode,
                   std::string("The \"") + name + "\" option must be a string");
    }
    const std::string text = value.As<Napi::String>().Utf8Value();
    if (text.size() >= sizeof(out)) {
        ThrowError(options.Env(), ErrorKind::kRangeError, "ERR_TRANSPORT_BAD_ARGUMENT",
                   std::string("The \"") + name + "\" option is too long");
    }
    std::memcpy(out, text.c_str(), text.size() + 1);
}

// Any number: NaN and the infinities reach the transport, whose range check answers them with the
// ERR_TRANSPORT_BAD_ARGUMENT the JS engine gives too (napi/audio_args.h NumberArg would make them a TypeError).
double NumberArgOf(const Napi::CallbackInfo& info, size_t index, const char* name)
{
    if (!info[index].IsNumber()) {
        ThrowError(info.Env(), ErrorKind::kTypeError, kInvalidArgTypeCode,
                   std::string("The \"") + name + "\" argument must be a number");
    }
    return info[index].As<Napi::Number>().DoubleValue();
}

} // namespace

Napi::Function VoiceTransportWrap::Define(Napi::Env env)
{
    return DefineClass(env, "VoiceTransport",
                       {
                         InstanceMethod<&VoiceTransportWrap::Start>("start"),
                         InstanceMethod<&VoiceTransportWrap::Stop>("stop"),
                         InstanceMethod<&VoiceTransportWrap::State>("state"),
                         InstanceMethod<&VoiceTransportWrap::Discovered>("discovered"),
                         InstanceMethod<&VoiceTransportWrap::SetTransportKey>("setTransportKey"),
                         InstanceMethod<&VoiceTransportWrap::SetDaveSendKey>("setDaveSendKey"),
                         InstanceMethod<&VoiceTransportWrap::SetDaveReceiveKey>("setDaveReceiveKey"),
                         InstanceMethod<&VoiceTransportWrap::SetDavePassthrough>("setDavePassthrough"),
                         InstanceMethod<&VoiceTransportWrap::SetSelfMute>("setSelfMute"),
                         InstanceMethod<&VoiceTransportWrap::SetSelfDeaf>("setSelfDeaf"),
                         InstanceMethod<&VoiceTransportWrap::SetPushToTalkMode>("setPushToTalkMode"),
                         InstanceMethod<&VoiceTransportWrap::SetPushToTalk>("setPushToTalk"),
                         InstanceMethod<&VoiceTransportWrap::SetPushToTalkReleaseDelayMs>(
                           "setPushToTalkReleaseDelayMs"),
                         InstanceMethod<&VoiceTransportWrap::SetSpeakerOutput>("setSpeakerOutput"),
                         InstanceMethod<&VoiceTransportWrap::PullSpeakerPcm>("pullSpeakerPcm"),
                         InstanceMethod<&VoiceTransportWrap::SetVadThresholdDb>("setVadThresholdDb"),
                         InstanceMethod<&VoiceTransportWrap::SetCaptureGain>("setCaptureGain"),
                         InstanceMethod<&VoiceTransportWrap::SetUserGain>("setUserGain"),
                         InstanceMethod<&VoiceTransportWrap::RemoveSpeaker>("removeSpeaker"),
                         InstanceMethod<&VoiceTransportWrap::PushPcm>("pushPcm"),
                         InstanceMethod<&VoiceTransportWrap::PullPcm>("pullPcm"),
                         InstanceMethod<&VoiceTransportWrap::PcmAvailable>("pcmAvailable"),
                         InstanceMethod<&VoiceTransportWrap::Stats>("stats"),
                         InstanceMethod<&VoiceTransportWrap::StatsInto>("statsInto"),
                         StaticMethod<&VoiceTransportWrap::StatsFields>("statsFields"),
                         InstanceMethod<&VoiceTransportWrap::LinkSystemAudio>("linkSystemAudio"),
                       });
}

VoiceTransportWrap::VoiceTransportWrap(const Napi::CallbackInfo& info)
  : Napi::ObjectWrap<VoiceTransportWrap>(info)
{
    const Napi::Env env = info.Env();
    if (!info[0].IsObject()) {
        ThrowError(env, ErrorKind::kTypeError, kInvalidArgTypeCode, "The \"options\" argument must be an object");
    }
    const Napi::Object options = info[0].As<Napi::Object>();
    transport::VoiceTransportConfig config;
    CopyHost(options, "serverHost", config.serverHost);
    CopyHost(options, "bindHost", config.bindHost);
    config.serverPort = static_cast<uint16_t>(OptionalNumber(options, "serverPort", 0, 1, 65535));
    config.bindPort = static_cast<uint16_t>(OptionalNumber(options, "bindPort", 0, 0, 65535));
    config.ssrc = static_cast<uint32_t>(OptionalNumber(options, "ssrc", 0, 0, 4294967295.0));
    config.discoveryTimeoutMs = static_cast<uint32_t>(OptionalNumber(options, "discoveryTimeoutMs", 1000, 1, 60000));
    config.discoveryAttempts = static_cast<uint32_t>(OptionalNumber(options, "discoveryAttempts", 3, 1, 100));
    config.bitrate = static_cast<int32_t>(OptionalNumber(options, "bitrate", 64000, 500, 512000));
    const Napi::Value discover = options.Get("discover");
    config.discover = discover.IsUndefined() ? true : discover.ToBoolean().Value();
    const Napi::Value raise = options.Get("raisePriority");
    config.raisePriority = raise.IsUndefined() ? true : raise.ToBoolean().Value();
    const Napi::Value onEvent = options.Get("onEvent");
    if (!onEvent.IsUndefined() && !onEvent.IsFunction()) {
        ThrowError(env, ErrorKind::kTypeError, kInvalidArgTypeCode, "The \"onEvent\" option must be a function");
    }
    if (onEvent.IsFunction()) {
        // Made before the cleanup hook below is added: hooks run in reverse order, so at teardown the thread
        // is stopped and the relay released before Node finalizes thread-safe functions.
        events_ = TransportEventRelay::Create(env, onEvent);
        if (events_ == nullptr) {
            ThrowError(env, ErrorKind::kError, "ERR_TRANSPORT_INTERNAL", "Creating the transport's event relay failed");
        }
        config.listener = events_;
    }
    TransportResult result = TransportResult::kInternalError;
    transport_ = transport::VoiceTransport::Create(config, &result);
    if (!transport_) {
        ReleaseEvents();
        Check(env, result == TransportResult::kOk ? TransportResult::kInternalError : result,
              "Creating the voice transport");
    }
    env_ = env;
    napi_add_env_cleanup_hook(env_, &VoiceTransportWrap::Cleanup, this);
}

VoiceTransportWrap::~VoiceTransportWrap()
{
    if (env_ != nullptr) {
        napi_remove_env_cleanup_hook(env_, &VoiceTransportWrap::Cleanup, this);
    }
    transport_.reset(); // joins the thread: it never waits for JS, so this cannot deadlock
    ReleaseEvents();
}

void VoiceTransportWrap::ReleaseEvents() noexcept
{
    if (events_ != nullptr) {
        events_->Release();
        events_ = nullptr;
    }
}

void VoiceTransportWrap::Cleanup(void* self)
{
    auto* wrap = static_cast<VoiceTransportWrap*>(self);
    if (wrap->transport_) {
        wrap->transport_->Stop();
    }
    wrap->ReleaseEvents(); // no thread calls it now; a transport stopped at teardown is not started again
}

Napi::Value VoiceTransportWrap::Start(const Napi::CallbackInfo& info)
{
    Check(info.Env(), transport_->Start(), "Starting the voice transport");
    return Napi::Number::New(info.Env(), transport_->LocalPort());
}

Napi::Value VoiceTransportWrap::Stop(const Napi::CallbackInfo& info)
{
    transport_->Stop();
    return info.Env().Undefined();
}

Napi::Value VoiceTransportWrap::State(const Napi::CallbackInfo& info)
{
    const char* name = "idle";
    switch (transport_->State()) {
    case transport::TransportState::kIdle: name = "idle"; break;
    case transport::TransportState::kDiscovering: name = "discovering"; break;
    case transport::TransportState::kRunning: name = "running"; break;
    case transport::TransportState::kDiscoveryFailed: name = "discovery-failed"; break;
    case transport::TransportState::kStopped: name = "stopped"; break;
    }
    return Napi::String::New(info.Env(), name);
}

Napi::Value VoiceTransportWrap::Discovered(const Napi::CallbackInfo& info)
{
    char address[64] = {};
    uint16_t port = 0;
    if (!transport_->DiscoveredAddress(address, sizeof(address), &port)) {
        return info.Env().Null();
    }
    Napi::Object result = Napi::Object::New(info.Env());
    result.Set("address", address);
    result.Set("port", static_cast<double>(port));
    return result;
}

Napi::Value VoiceTransportWrap::SetTransportKey(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    if (!info[0].IsString()) {
        ThrowError(env, ErrorKind::kTypeError, kInvalidArgTypeCode, "The \"mode\" argument must be a string");
    }
    rtp::TransportMode mode{};
    if (!rtp::ParseTransportMode(info[0].As<Napi::String>().Utf8Value(), &mode)) {
        ThrowError(env, ErrorKind::kTypeError, "ERR_RTP_UNSUPPORTED_MODE", "Unsupported transport encryption mode");
    }
    Check(env, transport_->SetTransportKey(mode, BytesArg(info, 1, "key")), "Setting the transport key");
    return env.Undefined();
}

Napi::Value VoiceTransportWrap::SetDaveSendKey(const Napi::CallbackInfo& info)
{
    Check(info.Env(), transport_->SetDaveSendKey(BytesArg(info, 0, "baseSecret")), "Setting the DAVE send key");
    return info.Env().Undefined();
}

Napi::Value VoiceTransportWrap::SetDaveReceiveKey(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    if (!info[0].IsNumber()) {
        ThrowError(env, ErrorKind::kTypeError, kInvalidArgTypeCode, "The \"ssrc\" argument must be a number");
    }
    const uint32_t ssrc = info[0].As<Napi::Number>().Uint32Value();
    Check(env, transport_->SetDaveReceiveKey(ssrc, BytesArg(info, 1, "baseSecret")),
          "Setting a DAVE receive key");
    return env.Undefined();
}

Napi::Value VoiceTransportWrap::SetDavePassthrough(const Napi::CallbackInfo& info)
{
    Check(info.Env(), transport_->SetDavePassthrough(BoolArg(info, 0, "enabled")), "Setting DAVE passthrough");
    return info.Env().Undefined();
}

Napi::Value VoiceTransportWrap::SetSelfMute(const Napi::CallbackInfo& info)
{
    Check(info.Env(), transport_->SetSelfMute(BoolArg(info, 0, "muted")), "Setting self mute");
    return info.Env().Undefined();
}

Napi::Value VoiceTransportWrap::SetSelfDeaf(const Napi::CallbackInfo& info)
{
    Check(info.Env(), transport_->SetSelfDeaf(BoolArg(info, 0, "deafened")), "Setting self deaf");
    return info.Env().Undefined();
}

Napi::Value VoiceTransportWrap::SetPushToTalkMode(const Napi::CallbackInfo& info)
{
    Check(info.Env(), transport_->SetPushToTalkMode(BoolArg(info, 0, "pushToTalk")), "Setting the transmit mode");
    return info.Env().Undefined();
}

Napi::Value VoiceTransportWrap::SetPushToTalk(const Napi::CallbackInfo& info)
{
    Check(info.Env(), transport_->SetPushToTalk(BoolArg(info, 0, "pressed")), "Setting push-to-talk");
    return info.Env().Undefined();
}

Napi::Value VoiceTransportWrap::SetPushToTalkReleaseDelayMs(const Napi::CallbackInfo& info)
{
    Check(info.Env(), transport_->SetPushToTalkReleaseDelayMs(NumberArgOf(info, 0, "delayMs")),
          "Setting the push-to-talk release delay");
    return info.Env().Undefined();
}

Napi::Value VoiceTransportWrap::SetSpeakerOutput(const Napi::CallbackInfo& info)
{
    Check(info.Env(), transport_->SetSpeakerOutput(BoolArg(info, 0, "enabled")), "Setting speaker output");
    return info.Env().Undefined();
}

Napi::Value VoiceTransportWrap::PullSpeakerPcm(const Napi::CallbackInfo& info)
{
    const Span<int16_t> out = Int16Arg(info, 0, "out");
    const Span<uint32_t> ssrcs = Uint32Arg(info, 1, "ssrcs");
    const Span<uint32_t> ticks = Uint32Arg(info, 2, "ticks");
    return Napi::Number::New(info.Env(), static_cast<double>(transport_->PullSpeakerPcm(out, ssrcs, ticks)));
}

Napi::Value VoiceTransportWrap::SetVadThresholdDb(const Napi::CallbackInfo& info)
{
    Check(info.Env(), transport_->SetVadThresholdDb(NumberArgOf(info, 0, "thresholdDb")),
          "Setting the VAD threshold");
    return info.Env().Undefined();
}

Napi::Value VoiceTransportWrap::SetCaptureGain(const Napi::CallbackInfo& info)
{
    Check(info.Env(), transport_->SetCaptureGain(NumberArgOf(info, 0, "gain")), "Setting the capture gain");
    return info.Env().Undefined();
}

Napi::Value VoiceTransportWrap::SetUserGain(const Napi::CallbackInfo& info)
{
    const double ssrc = NumberArgOf(info, 0, "ssrc");
    if (!(ssrc >= 0 && ssrc <= 4294967295.0) || ssrc != static_cast<double>(static_cast<uint32_t>(ssrc))) {
        ThrowError(info.Env(), ErrorKind::kRangeError, "ERR_TRANSPORT_BAD_ARGUMENT", "The \"ssrc\" argument is not a uint32");
    }
    Check(info.Env(), transport_->SetUserGain(static_cast<uint32_t>(ssrc), NumberArgOf(info, 1, "gain")),
          "Setting a speaker's gain");
    return info.Env().Undefined();
}

Napi::Value VoiceTransportWrap::RemoveSpeaker(const Napi::CallbackInfo& info)
{
    const double ssrc = NumberArgOf(info, 0, "ssrc");
    if (!(ssrc >= 0 && ssrc <= 4294967295.0) || ssrc != static_cast<double>(static_cast<uint32_t>(ssrc))) {
        ThrowError(info.Env(), ErrorKind::kRangeError, "ERR_TRANSPORT_BAD_ARGUMENT", "The \"ssrc\" argument is not a uint32");
    }
    Check(info.Env(), transport_->RemoveSpeaker(static_cast<uint32_t>(ssrc)), "Removing a speaker");
    return info.Env().Undefined();
}

Napi::Value VoiceTransportWrap::PushPcm(const Napi::CallbackInfo& info)
{
    const Span<int16_t> pcm = Int16Arg(info, 0, "pcm");
    return Napi::Number::New(info.Env(), static_cast<double>(transport_->PushPcm(pcm)));
}

Napi::Value VoiceTransportWrap::PullPcm(const Napi::CallbackInfo& info)
{
    const Span<int16_t> out = Int16Arg(info, 0, "out");
    return Napi::Number::New(info.Env(), static_cast<double>(transport_->PullPcm(out)));
}

Napi::Value VoiceTransportWrap::PcmAvailable(const Napi::CallbackInfo& info)
{
    return Napi::Number::New(info.Env(), static_cast<double>(transport_->PcmAvailable()));
}

Napi::Value VoiceTransportWrap::LinkSystemAudio(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    std::shared_ptr<devices::LinkedAudio> devices;
    if (!info[0].IsNull() && !info[0].IsUndefined()) {
        if (SystemAudioWrap* system = SystemAudioWrap::From(info[0])) {
            devices = system->Shared();
        } else if (ProcessingLinkWrap* link = ProcessingLinkWrap::From(info[0])) {
            devices = link->Shared();
        } else if (VirtualAudioWrap* virtualAudio = VirtualAudioWrap::From(info[0])) {
            devices = virtualAudio->Shared();
        } else {
            ThrowError(env, ErrorKind::kTypeError, kInvalidArgTypeCode,
                       "The \"systemAudio\" argument must be a SystemAudio, a VoiceProcessingLink, a VirtualAudio or null");
        }
        if (!devices) ThrowError(env, ErrorKind::kError, "ERR_SYSTEM_AUDIO_DISPOSED", "the system audio was disposed");
    }
    const bool capture = BoolArg(info, 1, "capture");
    const bool playback = BoolArg(info, 2, "playback");
    const double gain = NumberArgOf(info, 3, "playbackGain");
    // Optional: absent means the owner keeps reading the mix (the behaviour before the argument existed).
    const bool mirror = info.Length() < 5 || info[4].IsUndefined() ? true : BoolArg(info, 4, "mirrorPlayout");
    if (devices && std::find(linked_.begin(), linked_.end(), devices) == linked_.end()) {
        linked_.push_back(devices);
    }
    Check(env, transport_->LinkDevices(devices.get(), capture, playback, gain, mirror), "Linking the system audio");
    return env.Undefined();
}

// The counters in the order statsInto writes them and statsFields names them (the facade checks that the
// two lists agree once, then reads numbers only: no object is built on the native side per read).
#define SDKPP_STATS_FIELDS(X)                                                                                  \
    X(ticks) X(packetsSent) X(voiceFramesSent) X(silenceFramesSent) X(packetsReceived) X(framesMixed)        \
    X(droppedInputOverrun) X(droppedInputPartial) X(droppedOutputOverrun) X(droppedForeignSource)            \
    X(droppedNotRtp) X(droppedNoKey) X(droppedOpenFailed) X(droppedDaveFailed) X(droppedJitterRefused)       \
    X(droppedTooManySsrcs) X(droppedDecodeFailed) X(droppedEncodeFailed) X(droppedSendFailed) X(lateTicks)   \
    X(maxLatenessUs) X(tickLatenessP50Us) X(tickLatenessP99Us) X(allocationsInTicks) X(discoveryAttempts)   \
    X(priority) X(lastSpurtStartUs) X(nextTickInUs) X(devicesLinked)

Napi::Value VoiceTransportWrap::Stats(const Napi::CallbackInfo& info)
{
    const transport::TransportStats stats = transport_->Stats();
    Napi::Object out = Napi::Object::New(info.Env());
#define SDKPP_SET(name) out.Set(#name, static_cast<double>(stats.name));
    SDKPP_STATS_FIELDS(SDKPP_SET)
#undef SDKPP_SET
    return out;
}

Napi::Value VoiceTransportWrap::StatsInto(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    if (!info[0].IsTypedArray() || info[0].As<Napi::TypedArray>().TypedArrayType() != napi_float64_array) {
        ThrowError(env, ErrorKind::kTypeError, kInvalidArgTypeCode, "The \"out\" argument must be a Float64Array");
    }
    Napi::Float64Array out = info[0].As<Napi::Float64Array>();
    const transport::TransportStats stats = transport_->Stats();
    const double values[] = {
#define SDKPP_VALUE(name) static_cast<double>(stats.name),
      SDKPP_STATS_FIELDS(SDKPP_VALUE)
#undef SDKPP_VALUE
    };
    constexpr size_t kCount = sizeof(values) / sizeof(values[0]);
    if (out.ElementLength() < kCount) {
        ThrowError(env, ErrorKind::kRangeError, "ERR_TRANSPORT_BAD_ARGUMENT", "The \"out\" array is too short for the counters");
    }
    std::copy(values, values + kCount, out.Data());
    return Napi::Number::New(env, static_cast<double>(kCount));
}

Napi::Value VoiceTransportWrap::StatsFields(const Napi::CallbackInfo& info)
{
    const char* const names[] = {
#define SDKPP_NAME(name) #name,
      SDKPP_STATS_FIELDS(SDKPP_NAME)
#undef SDKPP_NAME
    };
    Napi::Array out = Napi::Array::New(info.Env(), sizeof(names) / sizeof(names[0]));
    for (uint32_t i = 0; i < out.Length(); ++i) {
        out.Set(i, Napi::String::New(info.Env(), names[i]));
    }
    return out;
}
#undef SDKPP_STATS_FIELDS

} // namespace sdkpp::addon
