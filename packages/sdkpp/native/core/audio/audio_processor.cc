#include "core/audio/audio_processor.h"

#include <cmath>

#include "core/audio/audio_format.h"
#include "core/audio/mixer.h"

namespace sdkpp::audio {
namespace {

constexpr double kSilenceLevelDb = -100.0;

bool ValidGain(float gain) noexcept
{
    return std::isfinite(gain) && gain >= 0.0F && gain <= AudioProcessor::kMaxGain;
}

} // namespace

AudioResult AudioProcessor::SetCaptureGain(float gain) noexcept
{
    if (!ValidGain(gain)) {
        return AudioResult::kBadArgument;
    }
    captureGain_ = gain;
    return AudioResult::kOk;
}

AudioResult AudioProcessor::SetVadThresholdDb(double thresholdDb) noexcept
{
    if (!std::isfinite(thresholdDb) || thresholdDb < kSilenceLevelDb || thresholdDb > 0.0) {
        return AudioResult::kBadArgument;
    }
    vadThresholdDb_ = thresholdDb;
    return AudioResult::kOk;
}

AudioResult AudioProcessor::SetPushToTalkReleaseDelayMs(double delayMs) noexcept
{
    if (!std::isfinite(delayMs) || delayMs < 0.0 || delayMs > 60000.0) {
        return AudioResult::kBadArgument;
    }
    pttReleaseDelayMs_ = delayMs;
    return AudioResult::kOk;
}

void AudioProcessor::SetPushToTalk(bool pressed, double nowMs) noexcept
{
    if (pttPressed_ && !pressed) {
        pttReleased_ = true;
        pttReleasedAtMs_ = nowMs;
    }
    pttPressed_ = pressed;
}

AudioResult AudioProcessor::SetUserGain(uint32_t key, float gain) noexcept
{
    if (!ValidGain(gain)) {
        return AudioResult::kBadArgument;
    }
    for (size_t i = 0; i < userCount_; ++i) {
        if (userKeys_[i] == key) {
            userGains_[i] = gain;
            return AudioResult::kOk;
        }
    }
    if (userCount_ == kMaxUsers) {
        return AudioResult::kTooManyUsers;
    }
    userKeys_[userCount_] = key;
    userGains_[userCount_] = gain;
    userCount_++;
    return AudioResult::kOk;
}

float AudioProcessor::UserGain(uint32_t key) const noexcept
{
    for (size_t i = 0; i < userCount_; ++i) {
        if (userKeys_[i] == key) {
            return userGains_[i];
        }
    }
    return 1.0F;
}

bool AudioProcessor::WantsToTransmit(double levelDb, double nowMs) const noexcept
{
    if (selfMute_ || selfDeaf_) {
        return false;
    }
    if (mode_ == TransmitMode::kPushToTalk) {
        return pttPressed_ || (pttReleased_ && nowMs - pttReleasedAtMs_ < pttReleaseDelayMs_);
    }
    return levelDb >= vadThresholdDb_;
}

SendAction AudioProcessor::ProcessCapture(Span<int16_t> pcm, double nowMs) noexcept
{
    double energy = 0;
    const bool unity = captureGain_ == 1.0F;
    for (int16_t& sample : pcm) {
        if (!unity) {
            bool limited = false;
            sample = LimitSample(static_cast<float>(sample) * captureGain_, &limited);
        }
        energy += static_cast<double>(sample) * sample;
    }
    const double rms = pcm.empty() ? 0.0 : std::sqrt(energy / static_cast<double>(pcm.size()));
    lastLevelDb_ =
      rms < 1e-9 ? kSilenceLevelDb : std::fmax(kSilenceLevelDb, 20.0 * std::log10(rms / 32768.0));

    if (WantsToTransmit(lastLevelDb_, nowMs)) {
        transmitting_ = true;
        silenceLeft_ = 0;
        return SendAction::kVoice;
    }
    if (transmitting_) {
        transmitting_ = false;
        silenceLeft_ = kSilenceFramesOnStop;
    }
    if (silenceLeft_ > 0) {
        silenceLeft_--;
        return SendAction::kSilence;
    }
    return SendAction::kNothing;
}

size_t AudioProcessor::Mix(Span<const int16_t> frames,
                           Span<const uint32_t> keys,
                           size_t count,
                           Span<int16_t> out) noexcept
{
    if (selfDeaf_ || count > keys.size() || count > kMaxUsers) {
        for (int16_t& sample : out) {
            sample = 0;
        }
        return 0;
    }
    float gains[kMaxUsers];
    for (size_t i = 0; i < count; ++i) {
        gains[i] = UserGain(keys[i]);
    }
    return MixFrames(frames, Span<const float>{gains, count}, count, out);
}

} // namespace sdkpp::audio
