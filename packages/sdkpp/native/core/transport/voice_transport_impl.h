#pragma once

// The inside of a VoiceTransport, shared by the files that each do one of its jobs; nothing outside
// core/transport includes it.
//   voice_transport.cc       the owner's calls: create, start and stop the thread, state, counters
//   transport_commands.cc    the control queue, both ends: the owner's Set* calls and the thread's apply
//   transport_pcm.cc         the owner's end of the capture and playout rings
//   transport_loop.cc        the thread: its clock and 20 ms ticks, and receiving between ticks
//   transport_discovery.cc   IP discovery before the first tick
//   transport_send.cc        a tick's capture frame to an RTP packet on the wire
//   transport_receive.cc     a datagram into its speaker's jitter buffer
//   transport_mix.cc         a tick's speakers decoded, then mixed (or handed out one by one)
// What the operating system provides sits behind udp_socket.h and thread_priority.h.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <thread>

#include "core/audio/audio_format.h"
#include "core/audio/audio_processor.h"
#include "core/audio/jitter_buffer.h"
#include "core/audio/opus_codec.h"
#include "core/clock.h"
#include "core/dave/decryptor.h"
#include "core/dave/encryptor.h"
#include "core/devices/linked_audio.h"
#include "core/rtp/ip_discovery.h"
#include "core/rtp/transport_cryptor.h"
#include "core/transport/lateness_histogram.h"
#include "core/transport/spsc_ring.h"
#include "core/transport/udp_socket.h"
#include "core/transport/voice_transport.h"

namespace sdkpp::transport {

using Clock = std::chrono::steady_clock;
constexpr auto kTick = std::chrono::milliseconds(audio::kFrameMs);
constexpr size_t kDatagramSize = 2048;

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
    kLinkDevices,
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
    // kLinkDevices: the devices to read and write (null unlinks); flag = capture, ssrc = playback.
    devices::LinkedAudio* devices = nullptr;
    // kLinkDevices: whether the mix also goes to the owner's playout ring while the speaker is linked.
    bool mirror = true;
};

using CommandQueue = SpscRing<Command, 64>;

inline double MsSince(Clock::time_point origin, Clock::time_point now) noexcept
{
    return std::chrono::duration<double, std::milli>(now - origin).count();
}

// Microseconds since the steady clock's epoch (the clock ticks and the stats' times are read on).
inline int64_t SteadyMicros(Clock::time_point at) noexcept
{
    return std::chrono::duration_cast<std::chrono::microseconds>(at.time_since_epoch()).count();
}

// One counter with one writer: a relaxed load and store, no read-modify-write needed.
inline void Bump(std::atomic<uint64_t>& counter, uint64_t by = 1) noexcept
{
    counter.store(counter.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
}

// Every TransportStats field, each an atomic of Impl: declared, and copied by Stats(), from this one list.
#define SDKPP_TRANSPORT_COUNTERS(X)                                                                     \
    X(ticks) X(packetsSent) X(voiceFramesSent) X(silenceFramesSent) X(packetsReceived) X(framesMixed) \
    X(droppedInputOverrun) X(droppedInputPartial) X(droppedOutputOverrun) X(droppedForeignSource)     \
    X(droppedNotRtp) X(droppedNoKey) X(droppedOpenFailed) X(droppedDaveFailed) X(droppedJitterRefused) \
    X(droppedTooManySsrcs) X(droppedDecodeFailed) X(droppedEncodeFailed) X(droppedSendFailed)         \
    X(lateTicks) X(maxLatenessUs) X(allocationsInTicks) X(discoveryAttempts) X(priority) X(lastSpurtStartUs) \
    X(devicesLinked)

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

    LatenessHistogram tickLateness;
    // The next tick's deadline on the steady clock, in microseconds since its epoch (0 before the ticks start).
    std::atomic<int64_t> nextTickUs{0};

    VoiceTransportConfig config;
    UdpAddress server{};
    UdpAddress bind{};
    UdpSocket socket;
    std::thread thread;
    std::atomic<bool> stop{false};
    std::atomic<TransportState> state{TransportState::kIdle};
    std::atomic<uint16_t> localPort{0};
    std::atomic<bool> discovered{false};
    char discoveredAddress[rtp::kIpDiscoveryAddressField] = {};
    uint16_t discoveredPort = 0;

    // JS → thread and thread → JS.
    CommandQueue commands;
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
    uint64_t commandAllocations = 0; // made by ApplyCommands this tick, not counted as the tick's
    bool davePassthrough = true;
    bool selfDeaf = false;
    bool speakerMode = false;
    // Linked system devices (LinkDevices): capture read from and playback written to them on this thread.
    devices::LinkedAudio* linked = nullptr;
    bool linkCapture = false;
    bool linkPlayback = false;
    // Whether the owner still reads the mix while a linked speaker plays it (LinkDevices' mirrorPlayout).
    bool linkMirror = true;
    float playbackGain = 1.0f;
    uint32_t tickNumber = 0;
    PcmFrame capture{};
    PcmFrame mixed{};
    int16_t speakerPcm[kMaxSpeakers * audio::kFrameSamples] = {};
    uint32_t speakerKeys[kMaxSpeakers] = {};
    uint8_t opus[audio::kMaxOpusPacketSize] = {};
    uint8_t daveFrame[audio::kMaxOpusPacketSize + 64] = {};
    uint8_t packet[kDatagramSize] = {};
    // What PrepareSend left in `packet` for SendPrepared.
    struct Prepared {
        size_t size = 0;          // 0: nothing to send this tick
        bool silence = false;     // an Opus silence frame (else voice)
        bool spurtStart = false;  // the first voice packet of a transmission
        bool transmissionChanged = false; // a transmission began or ended this tick (TransportListener)
    } prepared;
    uint8_t datagram[kDatagramSize] = {};
    uint8_t plaintext[kDatagramSize] = {};

    ~Impl() { DropPendingCommands(); }

    // transport_commands.cc
    void DropPendingCommands() noexcept;
    void ApplyCommands() noexcept;
    // Switches the linked devices, telling the old and the new capture side (LinkedAudio::CaptureLinked).
    void Relink(devices::LinkedAudio* devices, bool wantCapture, bool wantPlayback) noexcept;
    // transport_loop.cc
    void Run() noexcept;
    void WaitAndReceive(Clock::time_point deadline) noexcept;
    // Makes `deadline` the next tick's for Stats().nextTickInUs.
    void PublishDeadline(Clock::time_point deadline) noexcept
    {
        nextTickUs.store(SteadyMicros(deadline), std::memory_order_relaxed);
    }
    // transport_discovery.cc
    bool Discover() noexcept;
    // transport_loop.cc
    void PrepareSpeakers() noexcept;
    // transport_receive.cc
    void ReceiveAll() noexcept;
    void HandleDatagram(size_t size, double nowMs) noexcept;
    Speaker* FindSpeaker(uint32_t ssrc, bool add) noexcept;
    // transport_send.cc
    // The tick's packet: capture, processing, Opus, DAVE and the seal. `early` (ahead of the deadline): when
    // no capture frame is there yet, returns false and changes nothing (asked again at the deadline).
    bool PrepareSend(double nowMs, bool early) noexcept;
    // At the deadline: the prepared packet (if any) to the socket, and the counters and events of it.
    void SendPrepared() noexcept;
    // DAVE and the transport seal into `packet`; false when dropped (counted).
    bool SealPayload(const uint8_t* payload, size_t size, bool silence) noexcept;
    // transport_mix.cc
    void MixTick() noexcept;
    // The mixed frame (or silence) to the linked speaker, at the playback gain.
    void PlayLinked(const int16_t* frame) noexcept;
};

} // namespace sdkpp::transport
