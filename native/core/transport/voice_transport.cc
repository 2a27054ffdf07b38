#include "core/transport/voice_transport.h"

#include <cstring>
#include <new>

#if defined(_WIN32)

namespace sdkpp::transport {

// Not built on Windows yet: the thread uses POSIX sockets and poll. Create() says so instead of failing
// in some other way; the JS engine's transport is what runs there.
struct VoiceTransport::Impl {};

std::unique_ptr<VoiceTransport> VoiceTransport::Create(const VoiceTransportConfig&,
                                                       TransportResult* result) noexcept
{
    if (result != nullptr) {
        *result = TransportResult::kUnsupportedPlatform;
    }
    return nullptr;
}
VoiceTransport::VoiceTransport(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
VoiceTransport::~VoiceTransport() = default;
TransportResult VoiceTransport::Start() noexcept { return TransportResult::kUnsupportedPlatform; }
void VoiceTransport::Stop() noexcept {}
uint16_t VoiceTransport::LocalPort() const noexcept { return 0; }
TransportState VoiceTransport::State() const noexcept { return TransportState::kIdle; }
bool VoiceTransport::DiscoveredAddress(char*, size_t, uint16_t*) const noexcept { return false; }
TransportResult VoiceTransport::SetTransportKey(rtp::TransportMode, ByteView) noexcept
{
    return TransportResult::kUnsupportedPlatform;
}
TransportResult VoiceTransport::SetDaveSendKey(ByteView) noexcept { return TransportResult::kUnsupportedPlatform; }
TransportResult VoiceTransport::SetDaveReceiveKey(uint32_t, ByteView) noexcept
{
    return TransportResult::kUnsupportedPlatform;
}
TransportResult VoiceTransport::SetDavePassthrough(bool) noexcept { return TransportResult::kUnsupportedPlatform; }
TransportResult VoiceTransport::SetSelfMute(bool) noexcept { return TransportResult::kUnsupportedPlatform; }
TransportResult VoiceTransport::SetSelfDeaf(bool) noexcept { return TransportResult::kUnsupportedPlatform; }
TransportResult VoiceTransport::SetPushToTalkMode(bool) noexcept { return TransportResult::kUnsupportedPlatform; }
TransportResult VoiceTransport::SetPushToTalk(bool) noexcept { return TransportResult::kUnsupportedPlatform; }
TransportResult VoiceTransport::SetPushToTalkReleaseDelayMs(double) noexcept
{
    return TransportResult::kUnsupportedPlatform;
}
TransportResult VoiceTransport::SetSpeakerOutput(bool) noexcept { return TransportResult::kUnsupportedPlatform; }
size_t VoiceTransport::PullSpeakerPcm(Span<int16_t>, Span<uint32_t>, Span<uint32_t>) noexcept { return 0; }
TransportResult VoiceTransport::SetVadThresholdDb(double) noexcept { return TransportResult::kUnsupportedPlatform; }
TransportResult VoiceTransport::SetCaptureGain(double) noexcept { return TransportResult::kUnsupportedPlatform; }
TransportResult VoiceTransport::SetUserGain(uint32_t, double) noexcept
{
    return TransportResult::kUnsupportedPlatform;
}
TransportResult VoiceTransport::RemoveSpeaker(uint32_t) noexcept { return TransportResult::kUnsupportedPlatform; }
size_t VoiceTransport::PushPcm(Span<const int16_t>) noexcept { return 0; }
size_t VoiceTransport::PullPcm(Span<int16_t>) noexcept { return 0; }
size_t VoiceTransport::PcmAvailable() const noexcept { return 0; }
TransportStats VoiceTransport::Stats() const noexcept { return {}; }

} // namespace sdkpp::transport

#else

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

#include <chrono>
#include <thread>

#include "core/audio/alloc_counter.h"
#include "core/audio/audio_processor.h"
#include "core/audio/jitter_buffer.h"
#include "core/audio/opus_codec.h"
#include "core/clock.h"
#include "core/dave/decryptor.h"
#include "core/dave/encryptor.h"
#include "core/rtp/ip_discovery.h"
#include "core/transport/spsc_ring.h"

namespace sdkpp::transport {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kTick = std::chrono::milliseconds(audio::kFrameMs);
// Further behind than this (the process was suspended), the clock restarts instead of sending a burst.
constexpr auto kResyncAfter = std::chrono::milliseconds(200);
constexpr auto kLateTick = std::chrono::milliseconds(2);
constexpr size_t kDatagramSize = 2048;
// Datagrams read per wake-up before the deadline is looked at again: a flood cannot hold the thread.
constexpr int kMaxDatagramsPerWake = 64;

// Best effort, in the order a voice client would try: real-time FIFO (permitted to root or with
// CAP_SYS_NICE / an RLIMIT_RTPRIO), else nice -10 for this thread, else the default.
ThreadPriority RaiseThreadPriority() noexcept
{
#if defined(__linux__)
    // Timer slack: wake at the deadline, not up to 50 us after it.
    ::prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
#endif
    sched_param param{};
    param.sched_priority = 10; // low among real-time priorities: above every normal thread, below the kernel's
    if (::pthread_setschedparam(::pthread_self(), SCHED_FIFO, &param) == 0) {
        return ThreadPriority::kRealtime;
    }
#if defined(__linux__)
    // On Linux a thread is a task with its own nice value.
    if (::setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), -10) == 0) {
        return ThreadPriority::kRaisedNice;
    }
#endif
    return ThreadPriority::kNormal;
}

struct PcmFrame {
    int16_t samples[audio::kFrameSamples];
};

// One speaker's decoded frame in speaker-output mode, with who and when.
struct SpeakerFrame {
    uint32_t ssrc;
    uint32_t tick;
    int16_t samples[audio::kFrameSamples];
};

enum class CommandKind : uint8_t {
    kTransportKey,
    kDaveSendKey,
    kDaveReceiveKey,
    kDavePassthrough,
    kSelfMute,
    kSelfDeaf,
    kPushToTalkMode,
    kPushToTalk,
    kVadThreshold,
    kCaptureGain,
    kUserGain,
    kRemoveSpeaker,
    kPushToTalkReleaseDelay,
    kSpeakerOutput,
};

struct Command {
    CommandKind kind = CommandKind::kSelfMute;
    uint32_t ssrc = 0;
    bool flag = false;
    double number = 0;
    uint8_t secret[dave::kBaseSecretSize] = {};
    // Owned by the command until the thread adopts them (kTransportKey; kRemoveSpeaker's fresh state).
    rtp::TransportCryptor* cryptor = nullptr;
    audio::OpusDecoder* decoder = nullptr;
    dave::Decryptor* decryptor = nullptr;
};

double MsSince(Clock::time_point origin, Clock::time_point now) noexcept
{
    return std::chrono::duration<double, std::milli>(now - origin).count();
}

bool ParseIpv4(const char* host, uint16_t port, sockaddr_in* out) noexcept
{
    std::memset(out, 0, sizeof(*out));
    out->sin_family = AF_INET;
    out->sin_port = htons(port);
    return inet_pton(AF_INET, host, &out->sin_addr) == 1;
}

bool SameAddress(const sockaddr_in& a, const sockaddr_in& b) noexcept
{
    return a.sin_addr.s_addr == b.sin_addr.s_addr && a.sin_port == b.sin_port;
}

// One counter with one writer: a relaxed load and store, no read-modify-write needed.
void Bump(std::atomic<uint64_t>& counter, uint64_t by = 1) noexcept
{
    counter.store(counter.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
}

} // namespace

#define SDKPP_TRANSPORT_COUNTERS(X)                                                                     \
    X(ticks) X(packetsSent) X(voiceFramesSent) X(silenceFramesSent) X(packetsReceived) X(framesMixed) \
    X(droppedInputOverrun) X(droppedInputPartial) X(droppedOutputOverrun) X(droppedForeignSource)     \
    X(droppedNotRtp) X(droppedNoKey) X(droppedOpenFailed) X(droppedDaveFailed) X(droppedJitterRefused) \
    X(droppedTooManySsrcs) X(droppedDecodeFailed) X(droppedEncodeFailed) X(droppedSendFailed)         \
    X(lateTicks) X(maxLatenessUs) X(allocationsInTicks) X(discoveryAttempts) X(priority)

struct VoiceTransport::Impl {
    struct Speaker {
        bool used = false;
        uint32_t ssrc = 0;
        audio::JitterBuffer jitter;
        std::unique_ptr<audio::OpusDecoder> decoder;
        std::unique_ptr<dave::Decryptor> decryptor;
    };

#define SDKPP_DECLARE_COUNTER(name) std::atomic<uint64_t> name{0};
    SDKPP_TRANSPORT_COUNTERS(SDKPP_DECLARE_COUNTER)
#undef SDKPP_DECLARE_COUNTER

    VoiceTransportConfig config;
    sockaddr_in server{};
    sockaddr_in bind{};
    int fd = -1;
    std::thread thread;
    std::atomic<bool> stop{false};
    std::atomic<TransportState> state{TransportState::kIdle};
    std::atomic<uint16_t> localPort{0};
    std::atomic<bool> discovered{false};
    char discoveredAddress[rtp::kIpDiscoveryAddressField] = {};
    uint16_t discoveredPort = 0;

    // JS → thread and thread → JS.
    SpscRing<Command, 64> commands;
    SpscRing<PcmFrame, kInputFrames> input;
    SpscRing<PcmFrame, kOutputFrames> output;
    SpscRing<SpeakerFrame, kSpeakerFrames> speakerOutput;

    // Everything below belongs to the transport thread while it runs.
    SteadyClock daveClock;
    audio::AudioProcessor processor;
    std::unique_ptr<audio::OpusEncoder> encoder;
    std::unique_ptr<dave::Encryptor> encryptor;
    std::unique_ptr<rtp::TransportCryptor> cryptor;
    Speaker speakers[kMaxSpeakers];
    Clock::time_point origin;
    uint16_t sequence = 0;
    uint32_t timestamp = 0;
    int tailLeft = 0; // silence frames still owed after the last voice frame
    int dryTicks = 0; // ticks mid-speech without a capture frame, held before the silence frames
    bool davePassthrough = true;
    bool selfDeaf = false;
    bool speakerMode = false;
    uint32_t tickNumber = 0;
    PcmFrame capture{};
    PcmFrame mixed{};
    int16_t speakerPcm[kMaxSpeakers * audio::kFrameSamples] = {};
    uint32_t speakerKeys[kMaxSpeakers] = {};
    uint8_t opus[audio::kMaxOpusPacketSize] = {};
    uint8_t daveFrame[audio::kMaxOpusPacketSize + 64] = {};
    uint8_t packet[kDatagramSize] = {};
    uint8_t datagram[kDatagramSize] = {};
    uint8_t plaintext[kDatagramSize] = {};

    ~Impl() { DropPendingCommands(); }

    void DropPendingCommands() noexcept
    {
        Command command;
        while (commands.TryPop(&command)) {
            delete command.cryptor;
            delete command.decoder;
            delete command.decryptor;
        }
    }

    void Run() noexcept;
    bool Discover() noexcept;
    void WaitAndReceive(Clock::time_point deadline) noexcept;
    bool WaitReadable(Clock::time_point deadline) noexcept;
    void ReceiveAll() noexcept;
    void HandleDatagram(size_t size, double nowMs) noexcept;
    void ApplyCommands() noexcept;
    void SendTick(double nowMs) noexcept;
    void SendPayload(const uint8_t* payload, size_t size, bool silence) noexcept;
    void MixTick() noexcept;
    Speaker* FindSpeaker(uint32_t ssrc, bool add) noexcept;
};

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
    std::unique_ptr<Impl> impl(new (std::nothrow) Impl());
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
    for (Impl::Speaker& speaker : impl->speakers) {
        speaker.decoder = audio::OpusDecoder::Create(&audioResult);
        speaker.decryptor = dave::Decryptor::Create(&impl->daveClock, true);
        if (!speaker.decoder || !speaker.decryptor) {
            out = TransportResult::kInternalError;
            return nullptr;
        }
    }
    out = TransportResult::kOk;
    return std::unique_ptr<VoiceTransport>(new (std::nothrow) VoiceTransport(std::move(impl)));
}

TransportResult VoiceTransport::Start() noexcept
{
    Impl& s = *impl_;
    if (s.thread.joinable()) {
        return TransportResult::kAlreadyRunning;
    }
    s.fd = ::socket(AF_INET, SOCK_DGRAM, 0);
    if (s.fd < 0) {
        return TransportResult::kSocketError;
    }
    sockaddr_in local{};
    socklen_t localSize = sizeof(local);
    const int flags = ::fcntl(s.fd, F_GETFL, 0);
    if (flags < 0 || ::fcntl(s.fd, F_SETFL, flags | O_NONBLOCK) != 0 ||
        ::bind(s.fd, reinterpret_cast<const sockaddr*>(&s.bind), sizeof(s.bind)) != 0 ||
        ::getsockname(s.fd, reinterpret_cast<sockaddr*>(&local), &localSize) != 0) {
        ::close(s.fd);
        s.fd = -1;
        return TransportResult::kSocketError;
    }
    s.localPort.store(ntohs(local.sin_port), std::memory_order_release);
    s.stop.store(false, std::memory_order_release);
    s.discovered.store(false, std::memory_order_release);
    s.state.store(s.config.discover ? TransportState::kDiscovering : TransportState::kRunning,
                  std::memory_order_release);
    try {
        s.thread = std::thread([&s] { s.Run(); });
    } catch (...) {
        ::close(s.fd);
        s.fd = -1;
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
    ::close(s.fd);
    s.fd = -1;
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
TransportResult PushSecret(SpscRing<Command, 64>& ring, CommandKind kind, uint32_t ssrc, ByteView secret) noexcept
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

TransportResult PushFlag(SpscRing<Command, 64>& ring, CommandKind kind, bool flag) noexcept
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
TransportResult PushNumber(SpscRing<Command, 64>& ring, CommandKind kind, uint32_t ssrc, double number,
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

TransportStats VoiceTransport::Stats() const noexcept
{
    TransportStats stats;
#define SDKPP_COPY_COUNTER(name) stats.name = impl_->name.load(std::memory_order_relaxed);
    SDKPP_TRANSPORT_COUNTERS(SDKPP_COPY_COUNTER)
#undef SDKPP_COPY_COUNTER
    return stats;
}

// --- the transport thread ---------------------------------------------------------------------------

void VoiceTransport::Impl::Run() noexcept
{
    origin = Clock::now();
    if (config.raisePriority) {
        priority.store(static_cast<uint64_t>(RaiseThreadPriority()), std::memory_order_relaxed);
    }
    if (config.discover) {
        if (!Discover()) {
            state.store(stop.load(std::memory_order_acquire) ? TransportState::kStopped
                                                              : TransportState::kDiscoveryFailed,
                        std::memory_order_release);
            return;
        }
        state.store(TransportState::kRunning, std::memory_order_release);
    }
    // Absolute deadlines: a late tick does not push the next one back, so lateness never accumulates.
    Clock::time_point deadline = Clock::now() + kTick;
    uint64_t tick = 0;
    while (!stop.load(std::memory_order_acquire)) {
        WaitAndReceive(deadline);
        if (stop.load(std::memory_order_acquire)) {
            break;
        }
        const Clock::time_point now = Clock::now();
        const auto lateness = now - deadline;
        const auto latenessUs = static_cast<uint64_t>(
          std::chrono::duration_cast<std::chrono::microseconds>(lateness).count());
        if (lateness > kLateTick) {
            Bump(lateTicks);
        }
        if (latenessUs > maxLatenessUs.load(std::memory_order_relaxed)) {
            maxLatenessUs.store(latenessUs, std::memory_order_relaxed);
        }
        ApplyCommands(); // key changes may allocate (rarely); they are outside the counted part
        const uint64_t before = audio::AllocationCount();
        SendTick(MsSince(origin, now));
        MixTick();
        if (tick >= 2) { // the first ticks may warm lazily created state
            Bump(allocationsInTicks, audio::AllocationCount() - before);
        }
        ++tick;
        Bump(ticks);
        deadline += kTick;
        if (now - deadline > kResyncAfter) {
            deadline = now + kTick;
        }
    }
}

bool VoiceTransport::Impl::WaitReadable(Clock::time_point deadline) noexcept
{
    const auto remaining = deadline - Clock::now();
    if (remaining <= Clock::duration::zero()) {
        return false;
    }
    pollfd entry{fd, POLLIN, 0};
#if defined(__linux__)
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(remaining).count();
    timespec timeout{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
    const int ready = ::ppoll(&entry, 1, &timeout, nullptr);
#else
    // poll() has millisecond resolution: round up, so the tick is at most 1 ms late, never early.
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(remaining).count() + 1;
    const int ready = ::poll(&entry, 1, static_cast<int>(ms));
#endif
    return ready > 0 && (entry.revents & POLLIN) != 0;
}

void VoiceTransport::Impl::WaitAndReceive(Clock::time_point deadline) noexcept
{
    while (!stop.load(std::memory_order_acquire) && Clock::now() < deadline) {
        if (WaitReadable(deadline)) {
            ApplyCommands(); // a key set just before the first packet must open it
            ReceiveAll();
        }
    }
}

void VoiceTransport::Impl::ReceiveAll() noexcept
{
    for (int read = 0; read < kMaxDatagramsPerWake; ++read) {
        sockaddr_in from{};
        socklen_t fromSize = sizeof(from);
        const ssize_t got = ::recvfrom(fd, datagram, sizeof(datagram), 0, reinterpret_cast<sockaddr*>(&from),
                                       &fromSize);
        if (got < 0) {
            return; // EAGAIN: drained (or an error the next poll will show again)
        }
        if (fromSize != sizeof(from) || from.sin_family != AF_INET || !SameAddress(from, server)) {
            Bump(droppedForeignSource);
        } else {
            HandleDatagram(static_cast<size_t>(got), MsSince(origin, Clock::now()));
        }
        // Counted after its outcome, so a reader that sees the datagram also sees why it was dropped.
        Bump(packetsReceived);
    }
}

bool VoiceTransport::Impl::Discover() noexcept
{
    uint8_t request[rtp::kIpDiscoverySize] = {};
    rtp::IpDiscoveryPacket query;
    query.type = rtp::IpDiscoveryType::kRequest;
    query.ssrc = config.ssrc;
    size_t written = 0;
    if (rtp::WriteIpDiscovery(query, MutableByteView(request, sizeof(request)), &written) != rtp::Result::kOk) {
        return false;
    }
    for (uint32_t attempt = 0; attempt < config.discoveryAttempts; ++attempt) {
        if (stop.load(std::memory_order_acquire)) {
            return false;
        }
        Bump(discoveryAttempts);
        if (::sendto(fd, request, written, 0, reinterpret_cast<const sockaddr*>(&server), sizeof(server)) < 0) {
            Bump(droppedSendFailed);
        }
        const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(config.discoveryTimeoutMs);
        while (!stop.load(std::memory_order_acquire) && Clock::now() < deadline) {
            // In slices of one tick, so that Stop() never waits out a whole discovery timeout.
            const Clock::time_point slice = Clock::now() + kTick;
            if (!WaitReadable(slice < deadline ? slice : deadline)) {
                continue;
            }
            for (;;) {
                sockaddr_in from{};
                socklen_t fromSize = sizeof(from);
                const ssize_t got = ::recvfrom(fd, datagram, sizeof(datagram), 0,
                                               reinterpret_cast<sockaddr*>(&from), &fromSize);
                if (got < 0) {
                    break;
                }
                Bump(packetsReceived);
                if (fromSize != sizeof(from) || !SameAddress(from, server)) {
                    Bump(droppedForeignSource);
                    continue;
                }
                rtp::IpDiscoveryPacket answer;
                if (rtp::ParseIpDiscovery(ByteView(datagram, static_cast<size_t>(got)), &answer) !=
                      rtp::Result::kOk ||
                    answer.type != rtp::IpDiscoveryType::kResponse) {
                    Bump(droppedNotRtp);
                    continue;
                }
                std::memcpy(discoveredAddress, answer.address, answer.addressSize);
                discoveredAddress[answer.addressSize] = '\0';
                discoveredPort = answer.port;
                discovered.store(true, std::memory_order_release);
                return true;
            }
        }
    }
    return false;
}

VoiceTransport::Impl::Speaker* VoiceTransport::Impl::FindSpeaker(uint32_t ssrc, bool add) noexcept
{
    Speaker* free = nullptr;
    for (Speaker& speaker : speakers) {
        if (speaker.used && speaker.ssrc == ssrc) {
            return &speaker;
        }
        if (!speaker.used && free == nullptr) {
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

void VoiceTransport::Impl::ApplyCommands() noexcept
{
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
                speaker.decryptor->TransitionToPassthroughMode(command.flag);
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
}

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
    if (::sendto(fd, packet, packetSize, 0, reinterpret_cast<const sockaddr*>(&server), sizeof(server)) < 0) {
        Bump(droppedSendFailed);
        return;
    }
    ++sequence;
    Bump(packetsSent);
    Bump(silence ? silenceFramesSent : voiceFramesSent);
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
    if (output.TryPushWith([&](PcmFrame& slot) { std::memcpy(slot.samples, mixed.samples, sizeof(slot.samples)); })) {
        Bump(framesMixed);
    } else {
        Bump(droppedOutputOverrun);
    }
}

} // namespace sdkpp::transport

#endif
