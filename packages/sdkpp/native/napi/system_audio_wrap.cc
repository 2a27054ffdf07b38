#include "napi/system_audio_wrap.h"

#include <string>

#include "napi/addon_data.h"
#include "napi/audio_args.h"
#include "napi/errors.h"

namespace sdkpp::addon {
namespace {

devices::Direction DirectionArg(const Napi::CallbackInfo& info, size_t index)
{
    if (info[index].IsString()) {
        const std::string text = info[index].As<Napi::String>().Utf8Value();
        if (text == "input") return devices::Direction::kInput;
        if (text == "output") return devices::Direction::kOutput;
    }
    ThrowError(info.Env(), ErrorKind::kTypeError, kInvalidArgTypeCode,
               "The \"direction\" argument must be 'input' or 'output'");
}

const char* DirectionName(devices::Direction direction)
{
    return direction == devices::Direction::kInput ? "input" : "output";
}

} // namespace

Napi::Function SystemAudioWrap::Define(Napi::Env env)
{
    Napi::Function function = DefineClass(env, "SystemAudio",
                       {
                         InstanceMethod<&SystemAudioWrap::Backend>("backend"),
                         InstanceMethod<&SystemAudioWrap::List>("list"),
                         InstanceMethod<&SystemAudioWrap::Open>("open"),
                         InstanceMethod<&SystemAudioWrap::Close>("close"),
                         InstanceMethod<&SystemAudioWrap::Status>("status"),
                         InstanceMethod<&SystemAudioWrap::Read>("read"),
                         InstanceMethod<&SystemAudioWrap::Write>("write"),
                         InstanceMethod<&SystemAudioWrap::InputAvailable>("inputAvailable"),
                         InstanceMethod<&SystemAudioWrap::OutputQueued>("outputQueued"),
                         InstanceMethod<&SystemAudioWrap::TakeEvents>("takeEvents"),
                         InstanceMethod<&SystemAudioWrap::Dispose>("dispose"),
                       });
    // Kept per environment, so that a voice transport can tell that its argument is one of these.
    DataOf(env).systemAudio = Napi::Persistent(function);
    return function;
}

SystemAudioWrap* SystemAudioWrap::From(const Napi::Value& value)
{
    return UnwrapIf<SystemAudioWrap>(value, DataOf(value.Env()).systemAudio);
}

SystemAudioWrap::SystemAudioWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<SystemAudioWrap>(info)
{
    std::string error;
    system_ = devices::CreateSystemAudio(&error);
    if (!system_) ThrowError(info.Env(), ErrorKind::kError, "ERR_SYSTEM_AUDIO_UNAVAILABLE", error);
}

devices::SystemAudio& SystemAudioWrap::Live(const Napi::Env& env)
{
    if (!system_) ThrowError(env, ErrorKind::kError, "ERR_SYSTEM_AUDIO_DISPOSED", "the system audio was disposed");
    return *system_;
}

Napi::Value SystemAudioWrap::Backend(const Napi::CallbackInfo& info)
{
    return Napi::String::New(info.Env(), Live(info.Env()).Backend());
}

Napi::Value SystemAudioWrap::List(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const std::vector<devices::DeviceInfo> list = Live(env).List(DirectionArg(info, 0));
    Napi::Array result = Napi::Array::New(env, list.size());
    for (uint32_t i = 0; i < list.size(); ++i) {
        Napi::Object entry = Napi::Object::New(env);
        entry.Set("id", list[i].id);
        entry.Set("name", list[i].name);
        entry.Set("isDefault", list[i].isDefault);
        result.Set(i, entry);
    }
    return result;
}

Napi::Value SystemAudioWrap::Open(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const devices::Direction direction = DirectionArg(info, 0);
    std::string id;
    if (info[1].IsString()) {
        id = info[1].As<Napi::String>().Utf8Value();
    } else if (!info[1].IsNull() && !info[1].IsUndefined()) {
        ThrowError(env, ErrorKind::kTypeError, kInvalidArgTypeCode, "The \"id\" argument must be a string or null");
    }
    std::string error;
    if (!Live(env).Open(direction, id, &error)) {
        const bool missing = error.rfind("no such", 0) == 0;
        ThrowError(env, ErrorKind::kError, missing ? "ERR_AUDIO_DEVICE_NOT_FOUND" : "ERR_AUDIO_DEVICE_FAILED",
                   error);
    }
    return env.Undefined();
}

Napi::Value SystemAudioWrap::Close(const Napi::CallbackInfo& info)
{
    Live(info.Env()).Close(DirectionArg(info, 0));
    return info.Env().Undefined();
}

Napi::Value SystemAudioWrap::Status(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const devices::StreamStatus status = Live(env).Status(DirectionArg(info, 0));
    Napi::Object result = Napi::Object::New(env);
    result.Set("open", status.open);
    result.Set("followsDefault", status.followsDefault);
    result.Set("id", status.id);
    result.Set("name", status.name);
    result.Set("callbacks", static_cast<double>(status.callbacks));
    result.Set("droppedSamples", static_cast<double>(status.droppedSamples));
    result.Set("missingSamples", static_cast<double>(status.missingSamples));
    result.Set("underruns", static_cast<double>(status.underruns));
    result.Set("lateCallbacks", static_cast<double>(status.lateCallbacks));
    result.Set("longestGapMs", status.longestGapMs);
    result.Set("serverBufferMs", status.serverBufferMs);
    result.Set("priority", status.priority);
    result.Set("reopened", status.reopened);
    return result;
}

Napi::Value SystemAudioWrap::Read(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const Span<int16_t> out = Int16Arg(info, 0, "out");
    const double backlog = NumberArg(info, 1, "maxBacklogSamples");
    if (backlog < 0) ThrowError(env, ErrorKind::kRangeError, "ERR_OUT_OF_RANGE", "maxBacklogSamples must be >= 0");
    return Napi::Boolean::New(env, Live(env).ReadInput(out.data(), out.size(), static_cast<size_t>(backlog)));
}

Napi::Value SystemAudioWrap::Write(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const Span<int16_t> in = Int16Arg(info, 0, "pcm");
    return Napi::Number::New(env, static_cast<double>(Live(env).WriteOutput(in.data(), in.size())));
}

Napi::Value SystemAudioWrap::InputAvailable(const Napi::CallbackInfo& info)
{
    return Napi::Number::New(info.Env(), static_cast<double>(Live(info.Env()).InputAvailable()));
}

Napi::Value SystemAudioWrap::OutputQueued(const Napi::CallbackInfo& info)
{
    return Napi::Number::New(info.Env(), static_cast<double>(Live(info.Env()).OutputQueued()));
}

Napi::Value SystemAudioWrap::TakeEvents(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const std::vector<devices::DeviceEvent> events = Live(env).TakeEvents();
    Napi::Array result = Napi::Array::New(env, events.size());
    for (uint32_t i = 0; i < events.size(); ++i) {
        const devices::DeviceEvent& event = events[i];
        Napi::Object entry = Napi::Object::New(env);
        if (event.kind == devices::DeviceEvent::Kind::kDevicesChanged) {
            entry.Set("kind", "devices-changed");
        } else {
            entry.Set("kind", "device-lost");
            entry.Set("direction", DirectionName(event.direction));
            entry.Set("lostId", event.lostId);
            entry.Set("reason", event.reason);
            entry.Set("fallbackOpened", event.fallbackOpened);
            entry.Set("fallbackName", event.fallbackName);
        }
        result.Set(i, entry);
    }
    return result;
}

Napi::Value SystemAudioWrap::Dispose(const Napi::CallbackInfo& info)
{
    system_.reset();
    return info.Env().Undefined();
}

Napi::Value SystemAudioBuilt(const Napi::CallbackInfo& info)
{
    return Napi::Boolean::New(info.Env(), devices::SystemAudioBuilt());
}

} // namespace sdkpp::addon
