// The send path of the transport thread: each tick's capture frame through capture processing, Opus, DAVE
// (or passthrough) and the transport seal to the wire; after speech, the five Opus silence frames.
#include <cstring>

#include "core/opus_silence.h"
#include "core/transport/voice_transport.h"
#include "core/transport/voice_transport_impl.h"

namespace sdkpp::transport {

void VoiceTransport::Impl::SendTick(double nowMs) noexcept
{
    const bool have =
      input.TryPopWith([&](PcmFrame& slot) { std::memcpy(capture.samples, slot.samples, sizeof(slot.samples)); });
    audio::SendAction action = audio::SendAction::kNothing;
    if (have) {
        action = processor.ProcessCapture(Span<int16_t>(capture.samples, audio::kFrameSamples), nowMs);
        if (action == audio::SendAction::kVoice) {
            tailLeft = audio::kSilenceFramesOnStop;
        } else if (action == audio::SendAction::kSilence) {
            tailLeft = tailLeft > 0 ? tailLeft - 1 : 0;
        } else {
            tailLeft = 0;
        }
    } else if (tailLeft == audio::kSilenceFramesOnStop && dryTicks < kCaptureHoldTicks) {
        // The input ran dry mid-speech. The capture side runs on its own clock (a JS timer, an audio
        // callback), so a frame a little late is far more likely than the end of speech: hold a few ticks
        // for it instead of ending the transmission, which would cut the word at the receiver.
        ++dryTicks;
    } else if (tailLeft > 0) {
        // Still dry: the five silence frames go out, then nothing.
        action = audio::SendAction::kSilence;
        --tailLeft;
    }
    if (have) {
        dryTicks = 0;
    }
    if (action == audio::SendAction::kVoice) {
        size_t size = 0;
        if (encoder->Encode(Span<const int16_t>(capture.samples, audio::kFrameSamples),
                            MutableByteView(opus, sizeof(opus)), &size) != audio::AudioResult::kOk) {
            Bump(droppedEncodeFailed);
        } else {
            SendPayload(opus, size, false);
        }
    } else if (action == audio::SendAction::kSilence) {
        SendPayload(kOpusSilenceFrame, sizeof(kOpusSilenceFrame), true);
    }
    // The RTP clock runs with the wall clock, also while nothing is sent.
    timestamp += audio::kFrameTimestampStep;
}

void VoiceTransport::Impl::SendPayload(const uint8_t* payload, size_t size, bool silence) noexcept
{
    if (!cryptor) {
        Bump(droppedNoKey);
        return;
    }
    size_t frameSize = 0;
    const dave::Result daveResult =
      encryptor->Encrypt(ByteView(payload, size), Span<const dave::Range>(), MutableByteView(daveFrame, sizeof(daveFrame)),
                         &frameSize);
    if (daveResult != dave::Result::kOk && daveResult != dave::Result::kPassthrough) {
        Bump(droppedDaveFailed);
        return;
    }
    rtp::RtpHeader header;
    header.sequence = sequence;
    header.timestamp = timestamp;
    header.ssrc = config.ssrc;
    size_t packetSize = 0;
    if (cryptor->SealNext(header, ByteView(), ByteView(daveFrame, frameSize), MutableByteView(packet, sizeof(packet)),
                          &packetSize) != rtp::Result::kOk) {
        Bump(droppedEncodeFailed);
        return;
    }
    if (!socket.Send(ByteView(packet, packetSize))) {
        Bump(droppedSendFailed);
        return;
    }
    ++sequence;
    Bump(packetsSent);
    Bump(silence ? silenceFramesSent : voiceFramesSent);
}

} // namespace sdkpp::transport
