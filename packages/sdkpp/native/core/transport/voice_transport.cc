// The owner's calls of a VoiceTransport: create it, start and stop its thread, read its state and counters.
// The rest of the class is spread by job over the files voice_transport_impl.h lists.
#include "core/transport/voice_transport.h"

#include <cstring>
#include <new>

#include "core/transport/voice_transport_impl.h"

namespace sdkpp::transport {

VoiceTransport::VoiceTransport(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}

VoiceTransport::~VoiceTransport()
{
    Stop();
}

std::unique_ptr<VoiceTransport> VoiceTransport::Create(const VoiceTransportConfig& config,
                                                       TransportResult* result) noexcept
{
    TransportResult ignored = TransportResult::kOk;
    TransportResult& out = result != nullptr ? *result : ignored;
    if (!UdpSocketsAvailable()) {
        // No sockets at all (Winsock would not start): said so instead of failing in some other way; the
        // JS engine's transport can run instead.
        out = TransportResult::kUnsupportedPlatform;
        return nullptr;
    }
    // Default-initialised, not value-initialised (`Impl()` would zero all of its megabytes first, a page
    // fault per 4 KiB: 20 ms of the join): the members that need a value have an initialiser.
    std::unique_ptr<Impl> impl(new (std::nothrow) Impl);
    if (!impl) {
        out = TransportResult::kInternalError;
        return nullptr;
    }
    impl->config = config;
    impl->config.serverHost[sizeof(config.serverHost) - 1] = '\0';
    impl->config.bindHost[sizeof(config.bindHost) - 1] = '\0';
    if (config.serverPort == 0 || !ParseIpv4(impl->config.serverHost, config.serverPort, &impl->server) ||
        !ParseIpv4(impl->config.bindHost, config.bindPort, &impl->bind) || config.discoveryAttempts == 0 ||
        config.discoveryTimeoutMs == 0) {
        out = TransportResult::kBadArgument;
        return nullptr;
    }
    audio::AudioResult audioResult = audio::AudioResult::kOk;
    audio::OpusEncoderConfig encoderConfig;
    encoderConfig.bitrate = config.bitrate;
    impl->encoder = audio::OpusEncoder::Create(encoderConfig, &audioResult);
    if (!impl->encoder) {
        out = audioResult == audio::AudioResult::kCodecUnavailable ? TransportResult::kCodecUnavailable
                                                                    : TransportResult::kBadArgument;
        return nullptr;
    }
    impl->encryptor = dave::Encryptor::Create();
    if (!impl->encryptor) {
        out = TransportResult::kInternalError;
        return nullptr;
    }
    // Until a DAVE key arrives the call is not end-to-end encrypted: frames pass unchanged.
    impl->encryptor->SetPassthroughMode(true);
    // The speakers' decoders and decryptors are made by the thread before its first tick (PrepareSpeakers).
    out = TransportResult::kOk;
    return std::unique_ptr<VoiceTransport>(new (std::nothrow) VoiceTransport(std::move(impl)));
}

TransportResult VoiceTransport::Start() noexcept
{
    Impl& s = *impl_;
    if (s.thread.joinable()) {
        return TransportResult::kAlreadyRunning;
    }
    uint16_t localPort = 0;
    if (!s.socket.Open(s.bind, s.server, &localPort)) {
        return TransportResult::kSocketError;
    }
    s.localPort.store(localPort, std::memory_order_release);
    s.stop.store(false, std::memory_order_release);
    s.discovered.store(false, std::memory_order_release);
    s.state.store(s.config.discover ? TransportState::kDiscovering : TransportState::kRunning,
                  std::memory_order_release);
    try {
        s.thread = std::thread([&s] { s.Run(); });
    } catch (...) {
        s.socket.Close();
        s.state.store(TransportState::kStopped, std::memory_order_release);
        return TransportResult::kSocketError;
    }
    return TransportResult::kOk;
}

void VoiceTransport::Stop() noexcept
{
    Impl& s = *impl_;
    if (!s.thread.joinable()) {
        return;
    }
    s.stop.store(true, std::memory_order_release);
    s.thread.join();
    s.socket.Close();
    if (s.state.load(std::memory_order_acquire) != TransportState::kDiscoveryFailed) {
        s.state.store(TransportState::kStopped, std::memory_order_release);
    }
}

uint16_t VoiceTransport::LocalPort() const noexcept
{
    return impl_->localPort.load(std::memory_order_acquire);
}

TransportState VoiceTransport::State() const noexcept
{
    return impl_->state.load(std::memory_order_acquire);
}

bool VoiceTransport::DiscoveredAddress(char* out, size_t outSize, uint16_t* port) const noexcept
{
    if (!impl_->discovered.load(std::memory_order_acquire) || out == nullptr || outSize == 0) {
        return false;
    }
    const size_t length = std::strlen(impl_->discoveredAddress);
    if (length >= outSize) {
        return false;
    }
    std::memcpy(out, impl_->discoveredAddress, length + 1);
    if (port != nullptr) {
        *port = impl_->discoveredPort;
    }
    return true;
}

TransportStats VoiceTransport::Stats() const noexcept
{
    TransportStats stats;
#define SDKPP_COPY_COUNTER(name) stats.name = impl_->name.load(std::memory_order_relaxed);
    SDKPP_TRANSPORT_COUNTERS(SDKPP_COPY_COUNTER)
#undef SDKPP_COPY_COUNTER
    stats.tickLatenessP50Us = impl_->tickLateness.Quantile(0.5);
    stats.tickLatenessP99Us = impl_->tickLateness.Quantile(0.99);
    const int64_t next = impl_->nextTickUs.load(std::memory_order_relaxed);
    if (next != 0) {
        const int64_t in = next - SteadyMicros(Clock::now());
        stats.nextTickInUs = in > 0 ? static_cast<uint64_t>(in) : 0;
    }
    // Pairs with the thread's release store of devicesLinked: an owner that sees a device unlinked also
    // sees the thread's last use of its ring, and may read or write it from here on.
    std::atomic_thread_fence(std::memory_order_acquire);
    return stats;
}

} // namespace sdkpp::transport
