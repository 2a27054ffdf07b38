// The receive path of the transport thread: each datagram from the voice server is opened (transport
// cipher), then decrypted by its speaker's DAVE decryptor and queued in that speaker's jitter buffer.
#include "core/transport/voice_transport.h"
#include "core/transport/voice_transport_impl.h"

namespace sdkpp::transport {
namespace {

// Datagrams read per wake-up before the deadline is looked at again: a flood cannot hold the thread.
constexpr int kMaxDatagramsPerWake = 64;

} // namespace

void VoiceTransport::Impl::ReceiveAll() noexcept
{
    for (int read = 0; read < kMaxDatagramsPerWake; ++read) {
        size_t got = 0;
        bool fromServer = false;
        if (!socket.Receive(MutableByteView(datagram, sizeof(datagram)), &got, &fromServer)) {
            return; // drained (or an error the next wait will show again)
        }
        if (!fromServer) {
            Bump(droppedForeignSource);
        } else {
            HandleDatagram(got, MsSince(origin, Clock::now()));
        }
        // Counted after its outcome, so a reader that sees the datagram also sees why it was dropped.
        Bump(packetsReceived);
    }
}

void VoiceTransport::Impl::HandleDatagram(size_t size, double nowMs) noexcept
{
    // RTP version 2 with the Opus payload type; RTCP (payload types 72-76 with the marker bit) and
    // anything else is not for the jitter buffer.
    if (size < rtp::kFixedHeaderSize || (datagram[0] >> 6) != rtp::kRtpVersion ||
        (datagram[1] & 0x7F) != rtp::kOpusPayloadType) {
        Bump(droppedNotRtp);
        return;
    }
    if (!cryptor) {
        Bump(droppedNoKey);
        return;
    }
    rtp::OpenedPacket opened;
    if (cryptor->Open(ByteView(datagram, size), MutableByteView(plaintext, sizeof(plaintext)), &opened) !=
        rtp::Result::kOk) {
        Bump(droppedOpenFailed);
        return;
    }
    Speaker* speaker = FindSpeaker(opened.header.ssrc, true);
    if (speaker == nullptr) {
        Bump(droppedTooManySsrcs);
        return;
    }
    size_t frameSize = 0;
    const dave::Result daveResult = speaker->decryptor->Decrypt(
      ByteView(plaintext + opened.payloadOffset, opened.payloadSize), MutableByteView(daveFrame, sizeof(daveFrame)),
      &frameSize);
    if (daveResult != dave::Result::kOk && daveResult != dave::Result::kPassthrough) {
        Bump(droppedDaveFailed);
        return;
    }
    if (speaker->jitter.Push(opened.header.sequence, opened.header.timestamp, ByteView(daveFrame, frameSize),
                             nowMs) != audio::AudioResult::kOk) {
        Bump(droppedJitterRefused);
    }
}

VoiceTransport::Impl::Speaker* VoiceTransport::Impl::FindSpeaker(uint32_t ssrc, bool add) noexcept
{
    Speaker* free = nullptr;
    for (Speaker& speaker : speakers) {
        if (speaker.used && speaker.ssrc == ssrc) {
            return &speaker;
        }
        if (!speaker.used && free == nullptr && speaker.decoder && speaker.decryptor) {
            free = &speaker;
        }
    }
    if (!add || free == nullptr) {
        return nullptr;
    }
    free->used = true;
    free->ssrc = ssrc;
    free->jitter.Reset();
    return free;
}

} // namespace sdkpp::transport
