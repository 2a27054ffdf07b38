#pragma once

#include <napi.h>

#include <memory>

#include "core/audio/audio_processor.h"
#include "core/audio/jitter_buffer.h"
#include "core/audio/opus_codec.h"

namespace sdkpp::addon {

// The audio classes of core/audio as JS classes. Every per-frame method works on caller-provided typed
// arrays and returns a number (a count, or a negated audio::AudioResult), so a 20 ms tick allocates
// nothing on the native side; src/media/addon/types.ts documents the JS shapes.

// `new OpusEncoder(bitrate, inbandFec, packetLossPercent, voip)`; throws ERR_OPUS_UNAVAILABLE in a build
// without libopus and ERR_AUDIO_BAD_ARGUMENT for settings libopus refuses.
class OpusEncoderWrap final : public Napi::ObjectWrap<OpusEncoderWrap> {
public:
    static Napi::Function Define(Napi::Env env);
    explicit OpusEncoderWrap(const Napi::CallbackInfo& info);

private:
    Napi::Value Encode(const Napi::CallbackInfo& info);  // (pcm, out) -> bytes or -code
    Napi::Value SetBitrate(const Napi::CallbackInfo& info);
    Napi::Value SetPacketLossPercent(const Napi::CallbackInfo& info);
    Napi::Value Results(const Napi::CallbackInfo& info); // counts indexed by result code
    std::unique_ptr<audio::OpusEncoder> encoder_;
};

// `new OpusDecoder()`.
class OpusDecoderWrap final : public Napi::ObjectWrap<OpusDecoderWrap> {
public:
    static Napi::Function Define(Napi::Env env);
    explicit OpusDecoderWrap(const Napi::CallbackInfo& info);

private:
    Napi::Value Decode(const Napi::CallbackInfo& info);  // (packet, out, fec) -> samples per channel or -code
    Napi::Value Conceal(const Napi::CallbackInfo& info); // (out) -> samples per channel or -code
    Napi::Value Results(const Napi::CallbackInfo& info);
    std::unique_ptr<audio::OpusDecoder> decoder_;
};

// `new JitterBuffer(minDelayFrames, maxDelayFrames)`.
class JitterBufferWrap final : public Napi::ObjectWrap<JitterBufferWrap> {
public:
    static Napi::Function Define(Napi::Env env);
    explicit JitterBufferWrap(const Napi::CallbackInfo& info);

private:
    Napi::Value Push(const Napi::CallbackInfo& info);   // (sequence, timestamp, payload, nowMs) -> 0 or -code
    Napi::Value Pop(const Napi::CallbackInfo& info);    // (out, info: Uint32Array[4]) -> 0 or -code
    Napi::Value Status(const Napi::CallbackInfo& info); // -> {targetDelayFrames, jitterMs, ...stats}
    std::unique_ptr<audio::JitterBuffer> buffer_;
};

// `new AudioProcessor()`.
class AudioProcessorWrap final : public Napi::ObjectWrap<AudioProcessorWrap> {
public:
    static Napi::Function Define(Napi::Env env);
    explicit AudioProcessorWrap(const Napi::CallbackInfo& info);

private:
    Napi::Value ProcessCapture(const Napi::CallbackInfo& info); // (pcm, nowMs) -> SendAction
    Napi::Value LastLevelDb(const Napi::CallbackInfo& info);
    Napi::Value Mix(const Napi::CallbackInfo& info); // (frames, keys, count, out) -> limited samples
    Napi::Value SetCaptureGain(const Napi::CallbackInfo& info);
    Napi::Value SetUserGain(const Napi::CallbackInfo& info);
    Napi::Value SetVadThresholdDb(const Napi::CallbackInfo& info);
    Napi::Value SetMode(const Napi::CallbackInfo& info);
    Napi::Value SetPushToTalkReleaseDelayMs(const Napi::CallbackInfo& info);
    Napi::Value SetPushToTalk(const Napi::CallbackInfo& info);
    Napi::Value SetSelfMute(const Napi::CallbackInfo& info);
    Napi::Value SetSelfDeaf(const Napi::CallbackInfo& info);
    std::unique_ptr<audio::AudioProcessor> processor_;
};

} // namespace sdkpp::addon
