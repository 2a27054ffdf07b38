#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/audio/audio_format.h"
#include "core/devices/linked_audio.h"
#include "core/rtp/transport_cryptor.h"
#include "core/span.h"

namespace sdkpp::transport {

// Outcomes of the transport's control calls (the per-packet outcomes are counters, not results).
// Values are stable: they cross the addon boundary as numbers.
enum class TransportResult : uint8_t {
    kOk = 0,
    kBadArgument,         // an address that is not dotted IPv4, a port of 0, a key of the wrong size
    kUnsupportedPlatform, // the OS's sockets cannot be used at all (on Windows: Winsock would not start)
    kCodecUnavailable,    // the addon was built without libopus
    kSocketError,         // socket(), bind() or the thread could not be created
    kAlreadyRunning,
    kNotRunning,
    kQueueFull,           // the control queue to the thread is full: try again after a tick
    kInternalError,
};

// Where the thread is. Read with State(); written by the thread only (after Start).
enum class TransportState : uint8_t {
    kIdle = 0,
    kDiscovering = 1,      // sending the 74-byte IP discovery request and waiting for the answer
    kRunning = 2,          // ticking every 20 ms
    kDiscoveryFailed = 3,  // no valid answer after every retry: the thread has ended
    kStopped = 4,
};

// Told by the transport thread when a change its owner watches happened: a transmission (talk spurt) began
// or ended, so the owner can say who speaks without polling the counters. Called on the transport thread;
// it must return at once (the implementation only wakes the owner's thread) and outlive the thread.
class TransportListener {
public:
    virtual void OnTransportEvent() noexcept = 0;

protected:
    ~TransportListener() = default;
};

struct VoiceTransportConfig {
    // The voice server (the test's peer). Dotted IPv4 only for now.
    char serverHost[64] = "127.0.0.1";
    uint16_t serverPort = 0;
    // The local address to bind (port 0: any free port).
    char bindHost[64] = "0.0.0.0";
    uint16_t bindPort = 0;
    uint32_t ssrc = 0;
    // IP discovery before ticking; off, the thread starts ticking at once.
    bool discover = true;
    uint32_t discoveryTimeoutMs = 1000; // per attempt
    uint32_t discoveryAttempts = 3;
    int32_t bitrate = 64000;
    // Ask for a real-time scheduling class for the thread (best effort, as audio threads do): SCHED_FIFO
    // when permitted, else a higher nice priority, else nothing; on Windows MMCSS, else time-critical, and
    // the 1 ms timer resolution the waits need there. The thread sleeps between ticks and its receive loop
    // is bounded per wake-up, so it cannot monopolise a core.
    bool raisePriority = true;
    // Optional (see TransportListener); not owned.
    TransportListener* listener = nullptr;
};

// What the thread got when it asked for a higher priority.
enum class ThreadPriority : uint8_t {
    kNormal = 0,   // not asked, or refused
    kRaisedNice = 1,
    kRealtime = 2, // SCHED_FIFO
    kShortSlice = 3, // Linux >= 6.12: an ordinary thread with a short time slice (what anyone may ask)
    kMmcss = 4,        // Windows: MMCSS's "Pro Audio" task (the real-time band, as audio engines run)
    kTimeCritical = 5, // Windows without MMCSS: THREAD_PRIORITY_TIME_CRITICAL, the top of the normal class
};

// Every counter the thread keeps; each is written by the transport thread only and read by anyone.
// "dropped*" counts say why a packet or frame went nowhere.
struct TransportStats {
    uint64_t ticks = 0;
    uint64_t packetsSent = 0;
    uint64_t voiceFramesSent = 0;
    uint64_t silenceFramesSent = 0;
    uint64_t packetsReceived = 0; // datagrams read from the socket
    uint64_t framesMixed = 0;     // 20 ms frames pushed to the outbound ring
    uint64_t droppedInputOverrun = 0;    // pushPcm found the inbound ring full (counted on the JS side)
    uint64_t droppedInputPartial = 0;    // pushPcm samples that were not a whole 20 ms frame
    uint64_t droppedOutputOverrun = 0;   // the mixed frame found the outbound ring full
    uint64_t droppedForeignSource = 0;   // a datagram not from the server's address
    uint64_t droppedNotRtp = 0;          // not RTP version 2 with the Opus payload type (RTCP, junk)
    uint64_t droppedNoKey = 0;           // sent or received before the transport key was set
    uint64_t droppedOpenFailed = 0;      // transport decryption or parsing failed
    uint64_t droppedDaveFailed = 0;      // DAVE decryption (or encryption) failed
    uint64_t droppedJitterRefused = 0;   // late, duplicate or oversized for the jitter buffer
    uint64_t droppedTooManySsrcs = 0;    // a new SSRC with every receive slot taken
    uint64_t droppedDecodeFailed = 0;    // Opus refused the payload
    uint64_t droppedEncodeFailed = 0;
    uint64_t droppedSendFailed = 0;      // sendto() failed
    uint64_t lateTicks = 0;              // ticks that started more than 2 ms after their deadline
    uint64_t maxLatenessUs = 0;
    uint64_t tickLatenessP50Us = 0; // the median of how late ticks began (10 µs steps, since start)
    uint64_t tickLatenessP99Us = 0; // the 99th percentile of the same
    uint64_t allocationsInTicks = 0;     // heap allocations made inside ticks after the first (should be 0)
    uint64_t discoveryAttempts = 0;
    uint64_t priority = 0; // a ThreadPriority value
    uint64_t lastSpurtStartUs = 0;  // steady clock: the first voice packet of the latest talk spurt sent
    // How long until the next tick's deadline, in microseconds, when these stats were read (0 before the
    // ticks start): an owner that hands the thread frames just before its ticks and takes what it mixed
    // just after adds no wait of its own to the audio's way.
    uint64_t nextTickInUs = 0;
    // bit 0: capture from a linked microphone; bit 1: playback to a speaker; bit 2: the microphone's audio
    // passes a processing thread (LinkedAudio::ProcessesCapture)
    uint64_t devicesLinked = 0;
};

// The transport thread of one voice connection (issue 5): its own UDP socket and std::thread. It runs
// IP discovery, then ticks on its own monotonic clock at absolute 20 ms deadlines. Each tick takes one
// 20 ms PCM frame from a lock-free ring the JS side fills, runs capture processing, Opus, DAVE (or
// passthrough) and the transport seal, and sends; with nothing to send after speech it sends the five
// Opus silence frames once and goes quiet. Between ticks it receives (poll with the deadline as the
// timeout): transport open, then per SSRC a DAVE decryptor and a jitter buffer; each tick decodes or
// conceals every speaker, mixes, and pushes 20 ms of PCM to an outbound ring the JS side drains. Nothing
// on this path waits for the JS thread; the JS side never waits for this one either (keys go through a
// lock-free control queue). Every public method is for the one owning (JS) thread.
class VoiceTransport {
public:
    static constexpr size_t kMaxSpeakers = 32;
    static constexpr size_t kInputFrames = 16;  // 320 ms of capture may wait
    // Ticks mid-speech the sender waits for a late capture frame before it ends the transmission.
    static constexpr int kCaptureHoldTicks = 3;
    static constexpr size_t kOutputFrames = 32; // 640 ms of mixed audio may wait
    // Per-speaker frames waiting in speaker-output mode: 4 ticks of 32 speakers, 64 ticks of 2.
    static constexpr size_t kSpeakerFrames = 128;

    static std::unique_ptr<VoiceTransport> Create(const VoiceTransportConfig& config,
                                                  TransportResult* result) noexcept;
    ~VoiceTransport(); // stops and joins the thread
    VoiceTransport(const VoiceTransport&) = delete;
    VoiceTransport& operator=(const VoiceTransport&) = delete;

    // Binds the socket and starts the thread. A stopped transport can start again (a new socket).
    TransportResult Start() noexcept;
    // Asks the thread to end and joins it (at most one tick plus one poll).
    void Stop() noexcept;

    // The local port the socket is bound to (0 before Start).
    uint16_t LocalPort() const noexcept;
    TransportState State() const noexcept;
    // After kRunning with discovery: the address and port the server saw. False before.
    bool DiscoveredAddress(char* out, size_t outSize, uint16_t* port) const noexcept;

    // Control: queued to the thread, applied at its next tick. The transport key creates the cipher here
    // (on the caller's thread), so the transport thread never allocates for it.
    TransportResult SetTransportKey(rtp::TransportMode mode, ByteView key) noexcept;
    TransportResult SetDaveSendKey(ByteView baseSecret) noexcept;
    TransportResult SetDaveReceiveKey(uint32_t ssrc, ByteView baseSecret) noexcept;
    TransportResult SetDavePassthrough(bool enabled) noexcept;
    TransportResult SetSelfMute(bool muted) noexcept;
    TransportResult SetSelfDeaf(bool deafened) noexcept;
    // Capture processing (core/audio AudioProcessor): push-to-talk instead of voice activity, the key,
    // the VAD threshold (dBFS, -100..0), capture gain and one speaker's gain (0..10). Out-of-range values
    // are kBadArgument here, on the caller's thread, so the thread never sees one.
    TransportResult SetPushToTalkMode(bool pushToTalk) noexcept;
    TransportResult SetPushToTalk(bool pressed) noexcept;
    // How long sending goes on after the push-to-talk key is released (0..60000 ms; 20 by default).
    TransportResult SetPushToTalkReleaseDelayMs(double delayMs) noexcept;
    TransportResult SetVadThresholdDb(double thresholdDb) noexcept;
    TransportResult SetCaptureGain(double gain) noexcept;
    TransportResult SetUserGain(uint32_t ssrc, double gain) noexcept;
    // A speaker left (the gateway's client-disconnect): its receive slot is freed for another SSRC, with a
    // fresh decoder and DAVE decryptor created here, so no state or key of the old speaker is reused.
    TransportResult RemoveSpeaker(uint32_t ssrc) noexcept;

    // Copies whole 20 ms frames (kFrameSamples interleaved samples each) into the inbound ring; never
    // blocks. Returns the frames accepted; the rest (ring full, or a partial frame) is counted dropped.
    size_t PushPcm(Span<const int16_t> pcm) noexcept;
    // Copies as many whole mixed frames as are waiting and fit in `out`; returns the frame count.
    size_t PullPcm(Span<int16_t> out) noexcept;
    size_t PcmAvailable() const noexcept;

    // Speaker-output mode (for audio callbacks that see each user before mixing): while on, each tick
    // hands every speaker's decoded 20 ms frame (no gain applied, nothing mixed) to a per-speaker ring
    // instead of the mixed ring; deafened, nothing. Off (the default), the mixed ring is fed as before.
    TransportResult SetSpeakerOutput(bool enabled) noexcept;
    // Copies waiting per-speaker frames: frame i into out[i * kFrameSamples ...], its SSRC into ssrcs[i]
    // and the number of the tick that produced it into ticks[i] (frames of one tick share a number and
    // arrive together). At most min(out frames, ssrcs.size(), ticks.size()) frames; returns the count.
    size_t PullSpeakerPcm(Span<int16_t> out, Span<uint32_t> ssrcs, Span<uint32_t> ticks) noexcept;

    // Links system devices (core/devices) to this thread: each tick takes its capture frame from the
    // microphone's ring (after any frames pushed before) and writes its mix, or silence, to the speaker's
    // ring at `playbackGain` (0..2), so audio flows between the devices and the wire without the owner's
    // thread. `devices` is the SystemAudio itself, a ProcessingLink with voice processing in between, or the
    // SDK's VirtualAudio (a file as the microphone, the null speaker). `mirrorPlayout` false: the mix goes to
    // the linked speaker only, not also to the owner's playout ring (PullPcm), so an owner that reads none
    // of it lets the ring stand empty instead of overrunning. Null (or both false) unlinks. The owner must not read the microphone or write the speaker itself
    // while Stats().devicesLinked says the thread does, and `devices` must outlive the link (the owner
    // keeps it until the thread reports it unlinked, or the transport is gone).
    TransportResult LinkDevices(devices::LinkedAudio* devices, bool capture, bool playback, double playbackGain,
                                bool mirrorPlayout = true) noexcept;

    // A snapshot of every counter.
    TransportStats Stats() const noexcept;

    struct Impl;

private:
    explicit VoiceTransport(std::unique_ptr<Impl> impl) noexcept;
    std::unique_ptr<Impl> impl_;
};

} // namespace sdkpp::transport
