// The control queue of a VoiceTransport, both ends: the owner's Set* calls check their argument and queue a
// command (anything that allocates, such as a cipher or a fresh decoder, is made here, on the owner's
// thread); the transport thread applies what is queued at its next tick.
#include <cstring>
#include <memory>

#include "core/audio/alloc_counter.h"
#include "core/transport/voice_transport.h"
#include "core/transport/voice_transport_impl.h"

namespace sdkpp::transport {

TransportResult VoiceTransport::SetTransportKey(rtp::TransportMode mode, ByteView key) noexcept
{
    rtp::Result created = rtp::Result::kOk;
    std::unique_ptr<rtp::TransportCryptor> cryptor = rtp::TransportCryptor::Create(mode, key, &created);
    if (!cryptor) {
        return TransportResult::kBadArgument;
    }
    Command command;
    command.kind = CommandKind::kTransportKey;
    command.cryptor = cryptor.get();
    if (!impl_->commands.TryPush(command)) {
        return TransportResult::kQueueFull;
    }
    cryptor.release(); // the queue owns it now
    return TransportResult::kOk;
}

namespace {
TransportResult PushSecret(CommandQueue& ring, CommandKind kind, uint32_t ssrc, ByteView secret) noexcept
{
    if (secret.size() != dave::kBaseSecretSize) {
        return TransportResult::kBadArgument;
    }
    Command command;
    command.kind = kind;
    command.ssrc = ssrc;
    std::memcpy(command.secret, secret.data(), secret.size());
    return ring.TryPush(command) ? TransportResult::kOk : TransportResult::kQueueFull;
}

TransportResult PushFlag(CommandQueue& ring, CommandKind kind, bool flag) noexcept
{
    Command command;
    command.kind = kind;
    command.flag = flag;
    return ring.TryPush(command) ? TransportResult::kOk : TransportResult::kQueueFull;
}
} // namespace

TransportResult VoiceTransport::SetDaveSendKey(ByteView baseSecret) noexcept
{
    return PushSecret(impl_->commands, CommandKind::kDaveSendKey, 0, baseSecret);
}

TransportResult VoiceTransport::SetDaveReceiveKey(uint32_t ssrc, ByteView baseSecret) noexcept
{
    return PushSecret(impl_->commands, CommandKind::kDaveReceiveKey, ssrc, baseSecret);
}

TransportResult VoiceTransport::SetDavePassthrough(bool enabled) noexcept
{
    return PushFlag(impl_->commands, CommandKind::kDavePassthrough, enabled);
}

TransportResult VoiceTransport::SetSelfMute(bool muted) noexcept
{
    return PushFlag(impl_->commands, CommandKind::kSelfMute, muted);
}

TransportResult VoiceTransport::SetSelfDeaf(bool deafened) noexcept
{
    return PushFlag(impl_->commands, CommandKind::kSelfDeaf, deafened);
}

TransportResult VoiceTransport::SetPushToTalkMode(bool pushToTalk) noexcept
{
    return PushFlag(impl_->commands, CommandKind::kPushToTalkMode, pushToTalk);
}

TransportResult VoiceTransport::SetPushToTalk(bool pressed) noexcept
{
    return PushFlag(impl_->commands, CommandKind::kPushToTalk, pressed);
}

namespace {
TransportResult PushNumber(CommandQueue& ring, CommandKind kind, uint32_t ssrc, double number,
                           double min, double max) noexcept
{
    if (!(number >= min && number <= max)) { // also refuses NaN
        return TransportResult::kBadArgument;
    }
    Command command;
    command.kind = kind;
    command.ssrc = ssrc;
    command.number = number;
    return ring.TryPush(command) ? TransportResult::kOk : TransportResult::kQueueFull;
}
} // namespace

TransportResult VoiceTransport::RemoveSpeaker(uint32_t ssrc) noexcept
{
    audio::AudioResult created = audio::AudioResult::kOk;
    std::unique_ptr<audio::OpusDecoder> decoder = audio::OpusDecoder::Create(&created);
    std::unique_ptr<dave::Decryptor> decryptor = dave::Decryptor::Create(&impl_->daveClock, true);
    if (!decoder || !decryptor) {
        return TransportResult::kInternalError;
    }
    Command command;
    command.kind = CommandKind::kRemoveSpeaker;
    command.ssrc = ssrc;
    command.decoder = decoder.get();
    command.decryptor = decryptor.get();
    if (!impl_->commands.TryPush(command)) {
        return TransportResult::kQueueFull;
    }
    decoder.release(); // the queue owns them now
    decryptor.release();
    return TransportResult::kOk;
}

TransportResult VoiceTransport::SetPushToTalkReleaseDelayMs(double delayMs) noexcept
{
    return PushNumber(impl_->commands, CommandKind::kPushToTalkReleaseDelay, 0, delayMs, 0.0, 60000.0);
}

TransportResult VoiceTransport::SetSpeakerOutput(bool enabled) noexcept
{
    return PushFlag(impl_->commands, CommandKind::kSpeakerOutput, enabled);
}

TransportResult VoiceTransport::SetVadThresholdDb(double thresholdDb) noexcept
{
    return PushNumber(impl_->commands, CommandKind::kVadThreshold, 0, thresholdDb, -100.0, 0.0);
}

TransportResult VoiceTransport::SetCaptureGain(double gain) noexcept
{
    return PushNumber(impl_->commands, CommandKind::kCaptureGain, 0, gain, 0.0, audio::AudioProcessor::kMaxGain);
}

TransportResult VoiceTransport::SetUserGain(uint32_t ssrc, double gain) noexcept
{
    return PushNumber(impl_->commands, CommandKind::kUserGain, ssrc, gain, 0.0, audio::AudioProcessor::kMaxGain);
}

TransportResult VoiceTransport::LinkDevices(devices::LinkedAudio* devices, bool capture, bool playback,
                                            double playbackGain, bool mirrorPlayout) noexcept
{
    if (!(playbackGain >= 0.0 && playbackGain <= 2.0)) {
        return TransportResult::kBadArgument;
    }
    Command command;
    command.kind = CommandKind::kLinkDevices;
    command.devices = (capture || playback) ? devices : nullptr;
    command.flag = capture && devices != nullptr;
    command.ssrc = playback && devices != nullptr ? 1u : 0u;
    command.number = playbackGain;
    command.mirror = mirrorPlayout;
    return impl_->commands.TryPush(command) ? TransportResult::kOk : TransportResult::kQueueFull;
}

void VoiceTransport::Impl::DropPendingCommands() noexcept
{
    Command command;
    while (commands.TryPop(&command)) {
        delete command.cryptor;
        delete command.decoder;
        delete command.decryptor;
    }
}

void VoiceTransport::Impl::ApplyCommands() noexcept
{
    // Key changes may allocate (rarely); the tick's allocation count leaves them out.
    const uint64_t before = audio::AllocationCount();
    Command command;
    while (commands.TryPop(&command)) {
        switch (command.kind) {
        case CommandKind::kTransportKey:
            cryptor.reset(command.cryptor);
            break;
        case CommandKind::kDaveSendKey:
            encryptor->SetKeyRatchet(ByteView(command.secret, sizeof(command.secret)));
            encryptor->SetPassthroughMode(false);
            break;
        case CommandKind::kDaveReceiveKey: {
            Speaker* speaker = FindSpeaker(command.ssrc, true);
            if (speaker == nullptr) {
                Bump(droppedTooManySsrcs);
            } else {
                speaker->decryptor->TransitionToKeyRatchet(ByteView(command.secret, sizeof(command.secret)));
            }
            break;
        }
        case CommandKind::kDavePassthrough:
            davePassthrough = command.flag;
            encryptor->SetPassthroughMode(command.flag);
            for (Speaker& speaker : speakers) {
                if (speaker.decryptor) {
                    speaker.decryptor->TransitionToPassthroughMode(command.flag);
                }
            }
            break;
        case CommandKind::kSelfMute:
            processor.SetSelfMute(command.flag);
            break;
        case CommandKind::kSelfDeaf:
            selfDeaf = command.flag;
            processor.SetSelfDeaf(command.flag);
            break;
        case CommandKind::kPushToTalkReleaseDelay:
            processor.SetPushToTalkReleaseDelayMs(command.number);
            break;
        case CommandKind::kSpeakerOutput:
            speakerMode = command.flag;
            break;
        case CommandKind::kLinkDevices:
            playbackGain = static_cast<float>(command.number);
            linkMirror = command.mirror;
            Relink(command.devices, command.flag, command.ssrc != 0);
            break;
        case CommandKind::kPushToTalkMode:
            processor.SetMode(command.flag ? audio::TransmitMode::kPushToTalk : audio::TransmitMode::kVoiceActivity);
            break;
        case CommandKind::kPushToTalk:
            processor.SetPushToTalk(command.flag, MsSince(origin, Clock::now()));
            break;
        case CommandKind::kVadThreshold:
            processor.SetVadThresholdDb(command.number);
            break;
        case CommandKind::kCaptureGain:
            processor.SetCaptureGain(static_cast<float>(command.number));
            break;
        case CommandKind::kRemoveSpeaker: {
            Speaker* speaker = FindSpeaker(command.ssrc, false);
            std::unique_ptr<audio::OpusDecoder> decoder(command.decoder);
            std::unique_ptr<dave::Decryptor> decryptor(command.decryptor);
            if (speaker != nullptr) {
                speaker->used = false;
                speaker->jitter.Reset();
                speaker->decoder.swap(decoder); // the old ones are freed as this case ends
                speaker->decryptor.swap(decryptor);
                // A passthrough call stays one for the next speaker in this slot.
                speaker->decryptor->TransitionToPassthroughMode(davePassthrough);
            }
            break;
        }
        case CommandKind::kUserGain:
            // A full gain table (256 speakers) keeps the default gain for the rest.
            processor.SetUserGain(command.ssrc, static_cast<float>(command.number));
            break;
        }
    }
    commandAllocations += audio::AllocationCount() - before;
}

void VoiceTransport::Impl::Relink(devices::LinkedAudio* devices, bool wantCapture, bool wantPlayback) noexcept
{
    const bool newCapture = devices != nullptr && wantCapture;
    if (linkCapture && (linked != devices || !newCapture)) {
        linked->CaptureLinked(false);
    }
    if (newCapture && (linked != devices || !linkCapture)) {
        devices->CaptureLinked(true);
    }
    linked = devices;
    linkCapture = newCapture;
    linkPlayback = devices != nullptr && wantPlayback;
    const bool processed = linkCapture && linked->ProcessesCapture();
    devicesLinked.store((linkCapture ? 1u : 0u) | (linkPlayback ? 2u : 0u) | (processed ? 4u : 0u),
                        std::memory_order_release);
}

} // namespace sdkpp::transport
