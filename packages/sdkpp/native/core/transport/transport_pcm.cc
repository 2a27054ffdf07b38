// The owner's end of a VoiceTransport's audio rings: capture frames in, mixed (or per-speaker) frames out.
// Neither side ever waits for the other.
#include <cstring>

#include "core/transport/voice_transport.h"
#include "core/transport/voice_transport_impl.h"

namespace sdkpp::transport {

size_t VoiceTransport::PushPcm(Span<const int16_t> pcm) noexcept
{
    const size_t frames = pcm.size() / audio::kFrameSamples;
    const size_t partial = pcm.size() % audio::kFrameSamples;
    if (partial != 0) {
        Bump(impl_->droppedInputPartial, partial);
    }
    size_t accepted = 0;
    for (; accepted < frames; ++accepted) {
        const int16_t* source = pcm.data() + accepted * audio::kFrameSamples;
        if (!impl_->input.TryPushWith(
              [&](PcmFrame& slot) { std::memcpy(slot.samples, source, sizeof(slot.samples)); })) {
            break;
        }
    }
    if (accepted < frames) {
        Bump(impl_->droppedInputOverrun, frames - accepted);
    }
    return accepted;
}

size_t VoiceTransport::PullPcm(Span<int16_t> out) noexcept
{
    const size_t room = out.size() / audio::kFrameSamples;
    size_t taken = 0;
    while (taken < room) {
        int16_t* target = out.data() + taken * audio::kFrameSamples;
        if (!impl_->output.TryPopWith(
              [&](PcmFrame& slot) { std::memcpy(target, slot.samples, sizeof(slot.samples)); })) {
            break;
        }
        ++taken;
    }
    return taken;
}

size_t VoiceTransport::PcmAvailable() const noexcept
{
    return impl_->output.Size();
}

size_t VoiceTransport::PullSpeakerPcm(Span<int16_t> out, Span<uint32_t> ssrcs, Span<uint32_t> ticks) noexcept
{
    size_t room = out.size() / audio::kFrameSamples;
    room = ssrcs.size() < room ? ssrcs.size() : room;
    room = ticks.size() < room ? ticks.size() : room;
    size_t taken = 0;
    while (taken < room) {
        int16_t* target = out.data() + taken * audio::kFrameSamples;
        if (!impl_->speakerOutput.TryPopWith([&](SpeakerFrame& slot) {
                std::memcpy(target, slot.samples, sizeof(slot.samples));
                ssrcs[taken] = slot.ssrc;
                ticks[taken] = slot.tick;
            })) {
            break;
        }
        ++taken;
    }
    return taken;
}

} // namespace sdkpp::transport
