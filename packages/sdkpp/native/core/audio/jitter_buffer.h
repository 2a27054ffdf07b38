#pragma once

#include <cstddef>
#include <cstdint>

#include "core/audio/audio_format.h"
#include "core/audio/audio_result.h"
#include "core/span.h"

namespace sdkpp::audio {

// What the jitter buffer hands out for one 20 ms tick.
enum class JitterFrameKind : uint8_t {
    // Nothing to play (not started, or the stream stopped): the caller plays silence.
    kEmpty = 0,
    // The frame's own packet: decode it.
    kPacket = 1,
    // The frame's packet is lost but the next one is here: decode the next packet with fec = true.
    kFec = 2,
    // The frame's packet is lost and so is the next: conceal (Opus PLC).
    kConceal = 3,
};

struct JitterFrame {
    JitterFrameKind kind = JitterFrameKind::kEmpty;
    size_t size = 0; // payload bytes copied to the caller's buffer (kPacket, kFec)
    uint16_t sequence = 0;
    uint32_t timestamp = 0;
};

struct JitterConfig {
    // Bounds of the adaptive target delay, in 20 ms frames.
    uint32_t minDelayFrames = 1;
    uint32_t maxDelayFrames = 10;
};

struct JitterStats {
    uint64_t pushed = 0;    // packets accepted
    uint64_t late = 0;      // refused: already played or skipped
    uint64_t duplicate = 0; // refused: already buffered
    uint64_t invalid = 0;   // refused: empty or larger than a slot
    uint64_t packets = 0;   // ticks that played their own packet
    uint64_t fec = 0;       // ticks recovered from the next packet's FEC
    uint64_t concealed = 0; // ticks concealed
    uint64_t empty = 0;     // ticks with nothing to play
    uint64_t dropped = 0;   // frames skipped to bring the delay back to the target
    uint64_t resets = 0;    // sequence jumps beyond the buffer that restarted it
    uint64_t pauses = 0;    // talk spurts that ended (silence frames, or a sender gone quiet)
    uint64_t stretched = 0; // concealed ticks that kept their sequence number waiting (nothing buffered)
};

// An adaptive jitter buffer for one speaker's Opus stream, keyed by RTP sequence number (with wrap-around)
// and carrying the RTP timestamp. Push() stores a packet in a fixed slot (no allocation: every slot is part
// of the object); Pop() is called once per 20 ms tick and says what to play. Packets that arrive out of
// order are played in order; a packet older than what was already played is refused (late); a gap becomes
// FEC when the following packet is here, concealment otherwise.
//
// The target delay adapts to the network: an RFC 3550 interarrival-jitter estimate J (ms, from arrival
// times against RTP timestamps) gives target = clamp(1 + ceil(max(0, 2·J − kJitterSlackMs) / 20 ms))
// frames. The slack is what one frame of target already absorbs: a packet lands somewhere inside the 20 ms
// before the tick that plays it, and one that misses its tick waits (see below) rather than being lost; so
// the few milliseconds of scheduling noise every real clock shows keep the target at one frame, instead of
// costing a whole 20 ms frame of delay at the start of every talk spurt. Playout starts once
// that many frames are buffered; when more than target + 2 have been waiting for kExcessTicksBeforeDrop
// ticks in a row, one frame is dropped per tick until the delay is back.
//
// Senders stop between talk spurts and number their packets without gaps, so the next spurt goes on from
// the sequence number after the pause. A pause is therefore not a loss: after an Opus silence frame (how a
// sender ends a transmission) with nothing buffered, the buffer pauses without concealing or moving its
// playout point, and rebuffers from the next packet. A gap is a loss (FEC or concealment, and the playout
// point moves on) only when a later packet is already here; with nothing buffered the missing packet is
// more likely late, so the tick is concealed while its sequence number keeps waiting (the delay grows by a
// frame, which the target-based drop takes back later). After kMaxConcealRun such ticks the sender counts
// as gone quiet and the buffer pauses as above. The first packet after a pause gives no jitter sample: its
// arrival gap is the pause, not network jitter.
//
// A stall (a busy machine's sender, relay or network) is too rare to move J much, yet it costs a gap each
// time. So a packet that arrives after ticks concealed waiting for it sets a peak target, the frames it was
// late plus one, held for kPeakHoldTicks (10 s) after the latest such packet: the delay the stall added is
// kept instead of taken back, and the next stall as long plays through without a gap. The target in force
// is the larger of the two.
class JitterBuffer {
public:
    static constexpr size_t kCapacity = 64;
    static constexpr uint32_t kMaxConcealRun = 5;
    // Jitter (2·J, ms) that one frame of target delay absorbs before the target grows (see above).
    static constexpr double kJitterSlackMs = 10.0;
    static constexpr uint32_t kExcessTicksBeforeDrop = 8;
    static constexpr uint32_t kPeakHoldTicks = 500;

    explicit JitterBuffer(const JitterConfig& config = {}) noexcept;

    // `nowMs` is the caller's clock (arrival time); tests drive it by hand.
    AudioResult Push(uint16_t sequence, uint32_t timestamp, ByteView payload, double nowMs) noexcept;
    // Writes the payload to play (kPacket, kFec) into `out`, which must hold kMaxOpusPacketSize bytes or
    // the packet (else kBufferTooSmall and nothing is consumed).
    AudioResult Pop(MutableByteView out, JitterFrame* frame) noexcept;

    uint32_t TargetDelayFrames() const noexcept { return target_ > peakTarget_ ? target_ : peakTarget_; }
    double JitterMs() const noexcept { return jitterMs_; }
    size_t Buffered() const noexcept { return buffered_; }
    const JitterStats& Stats() const noexcept { return stats_; }
    void Reset() noexcept;

private:
    // A slot's bookkeeping; its payload is in payloads_ at the same index.
    struct Slot {
        bool used = false;
        uint16_t sequence = 0;
        uint32_t timestamp = 0;
        uint16_t size = 0;
    };

    Slot* Find(uint16_t sequence) noexcept;
    uint8_t* Payload(const Slot* slot) noexcept { return payloads_[slot - slots_]; }
    void Release(Slot* slot) noexcept;
    void UpdateJitter(uint32_t timestamp, double nowMs) noexcept;
    void Advance() noexcept;
    void Pause() noexcept;

    JitterConfig config_;
    Slot slots_[kCapacity];
    // Written before read (up to the slot's size), so left uninitialised: a transport holds 32 of these
    // buffers (80 KiB each), and only the slots a speaker's packets reach ever touch their memory.
    uint8_t payloads_[kCapacity][kMaxOpusPacketSize];
    size_t buffered_ = 0;
    bool playing_ = false;
    uint16_t next_ = 0;          // the sequence number the next tick plays (while playing_ or buffered_)
    bool havePlayed_ = false;    // whether lastPlayed_ means anything
    uint16_t lastPlayed_ = 0;    // the last sequence number played or skipped: anything up to it is late
    uint16_t lastReal_ = 0;      // the last sequence number played from its own packet
    bool lastWasSilence_ = false; // whether that packet was an Opus silence frame (end of transmission)
    uint32_t concealRun_ = 0;
    uint32_t stretchRun_ = 0;      // ticks concealed in a row waiting for next_ (a late packet)
    uint32_t peakTarget_ = 0;      // the delay the latest stalls needed (0: none in the last 10 s)
    uint32_t peakTicksLeft_ = 0;   // ticks until peakTarget_ lapses
    uint32_t excessTicks_ = 0;
    bool haveArrival_ = false;
    double lastArrivalMs_ = 0;
    uint32_t lastTimestamp_ = 0;
    double jitterMs_ = 0;
    uint32_t target_ = 1;
    JitterStats stats_;
};

} // namespace sdkpp::audio
