// The playout side of each tick: every speaker's next frame from its jitter buffer, decoded (or
// concealed), then mixed into one 20 ms frame for the owner, or in speaker-output mode handed out one by one.
#include <cstring>

#include "core/transport/voice_transport.h"
#include "core/transport/voice_transport_impl.h"

namespace sdkpp::transport {

void VoiceTransport::Impl::MixTick() noexcept
{
    ++tickNumber;
    size_t count = 0;
    for (Speaker& speaker : speakers) {
        if (!speaker.used) {
            continue;
        }
        audio::JitterFrame frame;
        if (speaker.jitter.Pop(MutableByteView(opus, sizeof(opus)), &frame) != audio::AudioResult::kOk ||
            frame.kind == audio::JitterFrameKind::kEmpty) {
            continue;
        }
        const Span<int16_t> pcm(speakerPcm + count * audio::kFrameSamples, audio::kFrameSamples);
        size_t perChannel = 0;
        audio::AudioResult decoded = audio::AudioResult::kOk;
        if (frame.kind == audio::JitterFrameKind::kConceal) {
            decoded = speaker.decoder->Conceal(pcm, &perChannel);
        } else {
            decoded = speaker.decoder->Decode(ByteView(opus, frame.size), pcm,
                                              frame.kind == audio::JitterFrameKind::kFec, &perChannel);
        }
        if (decoded != audio::AudioResult::kOk || perChannel != audio::kFrameSamplesPerChannel) {
            Bump(droppedDecodeFailed);
            continue;
        }
        speakerKeys[count] = speaker.ssrc;
        ++count;
    }
    if (count == 0) {
        if (linkPlayback) {
            std::memset(mixed.samples, 0, sizeof(mixed.samples));
            PlayLinked(mixed.samples); // a speaker needs every frame, silent ones too
        }
        return; // nobody spoke: the JS side reads the absence of frames as silence
    }
    if (speakerMode) {
        if (selfDeaf) {
            return; // deafened: nothing to hear, as the mix would be silence
        }
        for (size_t i = 0; i < count; ++i) {
            const int16_t* source = speakerPcm + i * audio::kFrameSamples;
            const uint32_t ssrc = speakerKeys[i];
            if (speakerOutput.TryPushWith([&](SpeakerFrame& slot) {
                    slot.ssrc = ssrc;
                    slot.tick = tickNumber;
                    std::memcpy(slot.samples, source, sizeof(slot.samples));
                })) {
                Bump(framesMixed);
            } else {
                Bump(droppedOutputOverrun);
            }
        }
        return;
    }
    processor.Mix(Span<const int16_t>(speakerPcm, count * audio::kFrameSamples),
                  Span<const uint32_t>(speakerKeys, count), count,
                  Span<int16_t>(mixed.samples, audio::kFrameSamples));
    if (linkPlayback) {
        PlayLinked(mixed.samples);
        if (!linkMirror) {
            Bump(framesMixed); // the owner does not read the mix: the speaker was its only listener
            return;
        }
    }
    if (output.TryPushWith([&](PcmFrame& slot) { std::memcpy(slot.samples, mixed.samples, sizeof(slot.samples)); })) {
        Bump(framesMixed);
    } else {
        Bump(droppedOutputOverrun);
    }
}

void VoiceTransport::Impl::PlayLinked(const int16_t* frame) noexcept
{
    if (playbackGain == 1.0f) {
        linked->WriteOutput(frame, audio::kFrameSamples);
        return;
    }
    int16_t* scaled = speakerPcm; // free again once the mix is made
    for (size_t i = 0; i < audio::kFrameSamples; ++i) {
        const float value = static_cast<float>(frame[i]) * playbackGain;
        scaled[i] = static_cast<int16_t>(value > 32767.0f ? 32767.0f : (value < -32768.0f ? -32768.0f : value));
    }
    linked->WriteOutput(scaled, audio::kFrameSamples);
}

} // namespace sdkpp::transport
