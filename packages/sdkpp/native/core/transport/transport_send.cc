// The send path of the transport thread: each tick's capture frame through capture processing, Opus, DAVE
// (or passthrough) and the transport seal, made a little before the tick's deadline (PrepareSend), then to
// the wire at the deadline (SendPrepared); after speech, the five Opus silence frames.
#include <chrono>
#include <cstring>

#include "core/opus_silence.h"
#include "core/transport/voice_transport.h"
#include "core/transport/voice_transport_impl.h"

namespace sdkpp::transport {

bool VoiceTransport::Impl::PrepareSend(double nowMs, bool early) noexcept
{
    prepared = Prepared{};
    // A transmission starts when voice follows nothing sent at all (no voice, no silence tail).
    const bool quiet = tailLeft == 0;
    const bool wasTransmitting = tailLeft > 0;
    // Frames the owner pushed come first (those from before a link), then the linked microphone's.
    const bool have =
      input.TryPopWith([&](PcmFrame& slot) { std::memcpy(capture.samples, slot.samples, sizeof(slot.samples)); }) ||
      (linkCapture && linked->ReadInput(capture.samples, audio::kFrameSamples, audio::kFrameSamples));
    if (have) {
        // Commands the owner queued before this frame (setDaveSendKey, then pushPcm) are in effect for it:
        // the frame's pop made them visible, and they may have come after the loop's last look.
        ApplyCommands();
    }
    if (!have && early) {
        // Nothing yet, and nothing changed: asked again at the deadline, so a frame that comes a little late
        // (the owner's timer, a device callback) still goes in this tick, only that much later.
        return false;
    }
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
        } else if (SealPayload(opus, size, false)) {
            prepared.spurtStart = quiet;
        }
    } else if (action == audio::SendAction::kSilence) {
        SealPayload(kOpusSilenceFrame, sizeof(kOpusSilenceFrame), true);
    }
    // The RTP clock runs with the wall clock, also while nothing is sent.
    timestamp += audio::kFrameTimestampStep;
    prepared.transmissionChanged = wasTransmitting != (tailLeft > 0);
    return true;
}

void VoiceTransport::Impl::SendPrepared() noexcept
{
    const Prepared sent = prepared;
    prepared = Prepared{};
    if (sent.size > 0) {
        if (!socket.Send(ByteView(packet, sent.size))) {
            Bump(droppedSendFailed);
        } else {
            Bump(packetsSent);
            Bump(sent.silence ? silenceFramesSent : voiceFramesSent);
            if (sent.spurtStart) {
                // The steady clock is CLOCK_MONOTONIC on POSIX, the clock process.hrtime reads.
                lastSpurtStartUs.store(static_cast<uint64_t>(SteadyMicros(Clock::now())), std::memory_order_relaxed);
            }
        }
    }
    // A transmission began or ended (its silence frames sent): the owner says who speaks from that, after
    // the counters it will read.
    if (sent.transmissionChanged && config.listener != nullptr) {
        config.listener->OnTransportEvent();
    }
}

bool VoiceTransport::Impl::SealPayload(const uint8_t* payload, size_t size, bool silence) noexcept
{
    if (!cryptor) {
        Bump(droppedNoKey);
        return false;
    }
    size_t frameSize = 0;
    const dave::Result daveResult =
      encryptor->Encrypt(ByteView(payload, size), Span<const dave::Range>(), MutableByteView(daveFrame, sizeof(daveFrame)),
                         &frameSize);
    if (daveResult != dave::Result::kOk && daveResult != dave::Result::kPassthrough) {
        Bump(droppedDaveFailed);
        return false;
    }
    rtp::RtpHeader header;
    header.sequence = sequence;
    header.timestamp = timestamp;
    header.ssrc = config.ssrc;
    size_t packetSize = 0;
    if (cryptor->SealNext(header, ByteView(), ByteView(daveFrame, frameSize), MutableByteView(packet, sizeof(packet)),
                          &packetSize) != rtp::Result::kOk) {
        Bump(droppedEncodeFailed);
        return false;
    }
    ++sequence; // the packet carries it now; a packet the socket then refuses is a gap the receiver conceals
    prepared.size = packetSize;
    prepared.silence = silence;
    return true;
}

} // namespace sdkpp::transport
