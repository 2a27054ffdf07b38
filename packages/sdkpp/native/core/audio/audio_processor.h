#pragma once

#include <cstddef>
#include <cstdint>

#include "core/audio/audio_result.h"
#include "core/span.h"

namespace sdkpp::audio {

// What to send for one captured 20 ms frame.
enum class SendAction : uint8_t {
    kNothing = 0, // not transmitting
    kVoice = 1,   // encode the (gain-adjusted) frame and send it
    kSilence = 2, // send kOpusSilenceFrame instead: one of the five that follow the end of transmission
};

enum class TransmitMode : uint8_t {
    kVoiceActivity = 0, // transmit while the frame's level reaches the VAD threshold
    kPushToTalk = 1,    // transmit while the key is held, and for the release delay after
};

// The per-call voice state of the local user: capture gain, voice activity detection, push-to-talk, self
// mute and deafen on the sending side; per-user gains and the mix on the receiving side.
//
// VAD is energy-based: a frame is voice when its RMS level, in dBFS after capture gain
// (20·log10(rms / 32768), -100 for digital silence), is at or above the threshold. It has no model of
// speech, so a noisy room needs a higher threshold. Time enters only through the `nowMs` arguments (the
// caller's clock, injected so tests can drive the push-to-talk release delay). Nothing here allocates.
class AudioProcessor {
public:
    static constexpr size_t kMaxUsers = 256;
    static constexpr float kMaxGain = 10.0F;

    // Applies capture gain to `pcm` in place, measures its level and decides what to send.
    SendAction ProcessCapture(Span<int16_t> pcm, double nowMs) noexcept;
    double LastLevelDb() const noexcept { return lastLevelDb_; }

    // Mixes `count` frames (one after another in `frames`, each out.size() samples) of the users `keys`
    // with their gains; deafened, the output is silence. Returns the samples the limiter touched.
    size_t Mix(Span<const int16_t> frames,
               Span<const uint32_t> keys,
               size_t count,
               Span<int16_t> out) noexcept;

    AudioResult SetCaptureGain(float gain) noexcept;
    AudioResult SetUserGain(uint32_t key, float gain) noexcept;
    float UserGain(uint32_t key) const noexcept;
    AudioResult SetVadThresholdDb(double thresholdDb) noexcept;
    void SetMode(TransmitMode mode) noexcept { mode_ = mode; }
    AudioResult SetPushToTalkReleaseDelayMs(double delayMs) noexcept;
    // Pressing or releasing the push-to-talk key at `nowMs`.
    void SetPushToTalk(bool pressed, double nowMs) noexcept;
    void SetSelfMute(bool muted) noexcept { selfMute_ = muted; }
    // Deafened users hear nothing and, as on the platform, send nothing either.
    void SetSelfDeaf(bool deafened) noexcept { selfDeaf_ = deafened; }

private:
    bool WantsToTransmit(double levelDb, double nowMs) const noexcept;

    float captureGain_ = 1.0F;
    double vadThresholdDb_ = -50.0;
    TransmitMode mode_ = TransmitMode::kVoiceActivity;
    double pttReleaseDelayMs_ = 20.0;
    bool pttPressed_ = false;
    bool pttReleased_ = false;
    double pttReleasedAtMs_ = 0;
    bool selfMute_ = false;
    bool selfDeaf_ = false;
    bool transmitting_ = false;
    int silenceLeft_ = 0;
    double lastLevelDb_ = -100.0;
    uint32_t userKeys_[kMaxUsers] = {};
    float userGains_[kMaxUsers] = {};
    size_t userCount_ = 0;
};

} // namespace sdkpp::audio
