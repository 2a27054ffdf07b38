#include "napi/audio_wraps.h"

#include <string>

#include "core/audio/audio_result.h"
#include "napi/args.h"
#include "napi/audio_args.h"
#include "napi/errors.h"
#include "napi/rtp_args.h"
#include "napi/reports.h"

namespace sdkpp::addon {
namespace {

using audio::AudioResult;

Napi::Number Result(Napi::Env env, AudioResult result)
{
    return Napi::Number::New(env, audio::NegatedAudioResult(result));
}

Napi::Number CountOrResult(Napi::Env env, AudioResult result, size_t count)
{
    return result == AudioResult::kOk ? Napi::Number::New(env, static_cast<double>(count))
                                      : Result(env, result);
}

Napi::Array Counts(Napi::Env env, const audio::AudioCounters& counters)
{
    return ResultCountArray<AudioResult>(env, audio::kAudioResultCount, counters);
}

[[noreturn]] void ThrowCreate(Napi::Env env, AudioResult result, const char* what)
{
    const std::string code(audio::AudioResultName(result));
    const ErrorKind kind = result == AudioResult::kBadArgument ? ErrorKind::kRangeError : ErrorKind::kError;
    ThrowError(env, kind, code.c_str(),
               result == AudioResult::kCodecUnavailable
                 ? std::string("This build of the native addon has no Opus codec (libopus was not found)")
                 : std::string("Creating the ") + what + " failed (" + code + ")");
}

int32_t Int32Arg(const Napi::CallbackInfo& info, size_t index, const char* name)
{
    const double value = NumberArg(info, index, name);
    if (value < -2147483648.0 || value > 2147483647.0 ||
        value != static_cast<double>(static_cast<int32_t>(value))) {
        return -1; // not an int32: core/audio refuses it as kBadArgument
    }
    return static_cast<int32_t>(value);
}

} // namespace

Napi::Function OpusEncoderWrap::Define(Napi::Env env)
{
    return DefineClass(env, "OpusEncoder",
                       {
                         InstanceMethod<&OpusEncoderWrap::Encode>("encode"),
                         InstanceMethod<&OpusEncoderWrap::SetBitrate>("setBitrate"),
                         InstanceMethod<&OpusEncoderWrap::SetPacketLossPercent>("setPacketLossPercent"),
                         InstanceMethod<&OpusEncoderWrap::Results>("results"),
                       });
}

OpusEncoderWrap::OpusEncoderWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<OpusEncoderWrap>(info)
{
    audio::OpusEncoderConfig config;
    config.bitrate = Int32Arg(info, 0, "bitrate");
    config.inbandFec = BoolArg(info, 1, "inbandFec");
    config.packetLossPercent = Int32Arg(info, 2, "packetLossPercent");
    config.voip = BoolArg(info, 3, "voip");
    AudioResult result = AudioResult::kOk;
    encoder_ = audio::OpusEncoder::Create(config, &result);
    if (!encoder_) {
        ThrowCreate(info.Env(), result, "Opus encoder");
    }
}

Napi::Value OpusEncoderWrap::Encode(const Napi::CallbackInfo& info)
{
    const Span<int16_t> pcm = Int16Arg(info, 0, "pcm");
    const MutableByteView out = MutableBytesArg(info, 1, "out");
    size_t written = 0;
    const AudioResult result = encoder_->Encode(pcm, out, &written);
    return CountOrResult(info.Env(), result, written);
}

Napi::Value OpusEncoderWrap::SetBitrate(const Napi::CallbackInfo& info)
{
    return Result(info.Env(), encoder_->SetBitrate(Int32Arg(info, 0, "bitrate")));
}

Napi::Value OpusEncoderWrap::SetPacketLossPercent(const Napi::CallbackInfo& info)
{
    return Result(info.Env(), encoder_->SetPacketLossPercent(Int32Arg(info, 0, "percent")));
}

Napi::Value OpusEncoderWrap::Results(const Napi::CallbackInfo& info)
{
    return Counts(info.Env(), encoder_->Counters());
}

Napi::Function OpusDecoderWrap::Define(Napi::Env env)
{
    return DefineClass(env, "OpusDecoder",
                       {
                         InstanceMethod<&OpusDecoderWrap::Decode>("decode"),
                         InstanceMethod<&OpusDecoderWrap::Conceal>("conceal"),
                         InstanceMethod<&OpusDecoderWrap::Results>("results"),
                       });
}

OpusDecoderWrap::OpusDecoderWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<OpusDecoderWrap>(info)
{
    AudioResult result = AudioResult::kOk;
    decoder_ = audio::OpusDecoder::Create(&result);
    if (!decoder_) {
        ThrowCreate(info.Env(), result, "Opus decoder");
    }
}

Napi::Value OpusDecoderWrap::Decode(const Napi::CallbackInfo& info)
{
    const ByteView packet = BytesArg(info, 0, "packet");
    const Span<int16_t> out = Int16Arg(info, 1, "out");
    const bool fec = BoolArg(info, 2, "fec");
    size_t samples = 0;
    const AudioResult result = decoder_->Decode(packet, out, fec, &samples);
    return CountOrResult(info.Env(), result, samples);
}

Napi::Value OpusDecoderWrap::Conceal(const Napi::CallbackInfo& info)
{
    const Span<int16_t> out = Int16Arg(info, 0, "out");
    size_t samples = 0;
    const AudioResult result = decoder_->Conceal(out, &samples);
    return CountOrResult(info.Env(), result, samples);
}

Napi::Value OpusDecoderWrap::Results(const Napi::CallbackInfo& info)
{
    return Counts(info.Env(), decoder_->Counters());
}

Napi::Function JitterBufferWrap::Define(Napi::Env env)
{
    return DefineClass(env, "JitterBuffer",
                       {
                         InstanceMethod<&JitterBufferWrap::Push>("push"),
                         InstanceMethod<&JitterBufferWrap::Pop>("pop"),
                         InstanceMethod<&JitterBufferWrap::Status>("status"),
                       });
}

JitterBufferWrap::JitterBufferWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<JitterBufferWrap>(info)
{
    audio::JitterConfig config;
    config.minDelayFrames = IntegerArg(info, 0, "minDelayFrames", 64, "ERR_AUDIO_BAD_ARGUMENT");
    config.maxDelayFrames = IntegerArg(info, 1, "maxDelayFrames", 64, "ERR_AUDIO_BAD_ARGUMENT");
    // Created once per speaker; the slots (about 80 KB) live inside the object.
    buffer_ = std::make_unique<audio::JitterBuffer>(config);
}

Napi::Value JitterBufferWrap::Push(const Napi::CallbackInfo& info)
{
    const uint32_t sequence = IntegerArg(info, 0, "sequence", 0xFFFF, "ERR_AUDIO_BAD_ARGUMENT");
    const uint32_t timestamp = IntegerArg(info, 1, "timestamp", 0xFFFFFFFF, "ERR_AUDIO_BAD_ARGUMENT");
    const ByteView payload = BytesArg(info, 2, "payload");
    const double nowMs = NumberArg(info, 3, "nowMs");
    return Result(info.Env(), buffer_->Push(static_cast<uint16_t>(sequence), timestamp, payload, nowMs));
}

Napi::Value JitterBufferWrap::Pop(const Napi::CallbackInfo& info)
{
    const MutableByteView out = MutableBytesArg(info, 0, "out");
    const Span<uint32_t> fields = Uint32Arg(info, 1, "info");
    if (fields.size() < 4) {
        ThrowError(info.Env(), ErrorKind::kRangeError, "ERR_AUDIO_BUFFER_TOO_SMALL",
                   "The \"info\" argument must have at least 4 elements");
    }
    audio::JitterFrame frame;
    const AudioResult result = buffer_->Pop(out, &frame);
    fields[0] = static_cast<uint32_t>(frame.kind);
    fields[1] = static_cast<uint32_t>(frame.size);
    fields[2] = frame.sequence;
    fields[3] = frame.timestamp;
    return Result(info.Env(), result);
}

Napi::Value JitterBufferWrap::Status(const Napi::CallbackInfo& info)
{
    const Napi::Env env = info.Env();
    const audio::JitterStats& stats = buffer_->Stats();
    auto status = Napi::Object::New(env);
    status.Set("targetDelayFrames", static_cast<double>(buffer_->TargetDelayFrames()));
    status.Set("jitterMs", buffer_->JitterMs());
    status.Set("buffered", static_cast<double>(buffer_->Buffered()));
    status.Set("pushed", static_cast<double>(stats.pushed));
    status.Set("late", static_cast<double>(stats.late));
    status.Set("duplicate", static_cast<double>(stats.duplicate));
    status.Set("invalid", static_cast<double>(stats.invalid));
    status.Set("packets", static_cast<double>(stats.packets));
    status.Set("fec", static_cast<double>(stats.fec));
    status.Set("concealed", static_cast<double>(stats.concealed));
    status.Set("empty", static_cast<double>(stats.empty));
    status.Set("dropped", static_cast<double>(stats.dropped));
    status.Set("resets", static_cast<double>(stats.resets));
    status.Set("pauses", static_cast<double>(stats.pauses));
    status.Set("stretched", static_cast<double>(stats.stretched));
    return status;
}

Napi::Function AudioProcessorWrap::Define(Napi::Env env)
{
    return DefineClass(
      env, "AudioProcessor",
      {
        InstanceMethod<&AudioProcessorWrap::ProcessCapture>("processCapture"),
        InstanceMethod<&AudioProcessorWrap::LastLevelDb>("lastLevelDb"),
        InstanceMethod<&AudioProcessorWrap::Mix>("mix"),
        InstanceMethod<&AudioProcessorWrap::SetCaptureGain>("setCaptureGain"),
        InstanceMethod<&AudioProcessorWrap::SetUserGain>("setUserGain"),
        InstanceMethod<&AudioProcessorWrap::SetVadThresholdDb>("setVadThresholdDb"),
        InstanceMethod<&AudioProcessorWrap::SetMode>("setMode"),
        InstanceMethod<&AudioProcessorWrap::SetPushToTalkReleaseDelayMs>("setPushToTalkReleaseDelayMs"),
        InstanceMethod<&AudioProcessorWrap::SetPushToTalk>("setPushToTalk"),
        InstanceMethod<&AudioProcessorWrap::SetSelfMute>("setSelfMute"),
        InstanceMethod<&AudioProcessorWrap::SetSelfDeaf>("setSelfDeaf"),
      });
}

AudioProcessorWrap::AudioProcessorWrap(const Napi::CallbackInfo& info)
  : Napi::ObjectWrap<AudioProcessorWrap>(info), processor_(std::make_unique<audio::AudioProcessor>())
{
}

Napi::Value AudioProcessorWrap::ProcessCapture(const Napi::CallbackInfo& info)
{
    const Span<int16_t> pcm = Int16Arg(info, 0, "pcm");
    const double nowMs = NumberArg(info, 1, "nowMs");
    return Napi::Number::New(info.Env(), static_cast<double>(processor_->ProcessCapture(pcm, nowMs)));
}

Napi::Value AudioProcessorWrap::LastLevelDb(const Napi::CallbackInfo& info)
{
    return Napi::Number::New(info.Env(), processor_->LastLevelDb());
}

Napi::Value AudioProcessorWrap::Mix(const Napi::CallbackInfo& info)
{
    const Span<int16_t> frames = Int16Arg(info, 0, "frames");
    const Span<uint32_t> keys = Uint32Arg(info, 1, "keys");
    const uint32_t count = IntegerArg(info, 2, "count", 0xFFFFFFFF, "ERR_AUDIO_BAD_ARGUMENT");
    const Span<int16_t> out = Int16Arg(info, 3, "out");
    const size_t limited = processor_->Mix(frames, keys, count, out);
    return Napi::Number::New(info.Env(), static_cast<double>(limited));
}

Napi::Value AudioProcessorWrap::SetCaptureGain(const Napi::CallbackInfo& info)
{
    return Result(info.Env(), processor_->SetCaptureGain(static_cast<float>(NumberArg(info, 0, "gain"))));
}

Napi::Value AudioProcessorWrap::SetUserGain(const Napi::CallbackInfo& info)
{
    const uint32_t key = IntegerArg(info, 0, "key", 0xFFFFFFFF, "ERR_AUDIO_BAD_ARGUMENT");
    return Result(info.Env(), processor_->SetUserGain(key, static_cast<float>(NumberArg(info, 1, "gain"))));
}

Napi::Value AudioProcessorWrap::SetVadThresholdDb(const Napi::CallbackInfo& info)
{
    return Result(info.Env(), processor_->SetVadThresholdDb(NumberArg(info, 0, "thresholdDb")));
}

Napi::Value AudioProcessorWrap::SetMode(const Napi::CallbackInfo& info)
{
    const uint32_t mode = IntegerArg(info, 0, "mode", 1, "ERR_AUDIO_BAD_ARGUMENT");
    processor_->SetMode(static_cast<audio::TransmitMode>(mode));
    return info.Env().Undefined();
}

Napi::Value AudioProcessorWrap::SetPushToTalkReleaseDelayMs(const Napi::CallbackInfo& info)
{
    return Result(info.Env(), processor_->SetPushToTalkReleaseDelayMs(NumberArg(info, 0, "delayMs")));
}

Napi::Value AudioProcessorWrap::SetPushToTalk(const Napi::CallbackInfo& info)
{
    processor_->SetPushToTalk(BoolArg(info, 0, "pressed"), NumberArg(info, 1, "nowMs"));
    return info.Env().Undefined();
}

Napi::Value AudioProcessorWrap::SetSelfMute(const Napi::CallbackInfo& info)
{
    processor_->SetSelfMute(BoolArg(info, 0, "muted"));
    return info.Env().Undefined();
}

Napi::Value AudioProcessorWrap::SetSelfDeaf(const Napi::CallbackInfo& info)
{
    processor_->SetSelfDeaf(BoolArg(info, 0, "deafened"));
    return info.Env().Undefined();
}

} // namespace sdkpp::addon
