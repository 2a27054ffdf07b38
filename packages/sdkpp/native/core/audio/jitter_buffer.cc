#include "core/audio/jitter_buffer.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace sdkpp::audio {
namespace {

// Signed distance from b to a in sequence space (RFC 3550 wrap-around).
int32_t SequenceDelta(uint16_t a, uint16_t b) noexcept
{
    return static_cast<int16_t>(static_cast<uint16_t>(a - b));
}

} // namespace

JitterBuffer::JitterBuffer(const JitterConfig& config) noexcept : config_(config)
{
    if (config_.minDelayFrames < 1) {
        config_.minDelayFrames = 1;
    }
    if (config_.maxDelayFrames > kCapacity / 2) {
        config_.maxDelayFrames = kCapacity / 2;
    }
    if (config_.maxDelayFrames < config_.minDelayFrames) {
        config_.maxDelayFrames = config_.minDelayFrames;
    }
    target_ = config_.minDelayFrames;
}

void JitterBuffer::Reset() noexcept
{
    for (Slot& slot : slots_) {
        slot.used = false;
    }
    buffered_ = 0;
    playing_ = false;
    concealRun_ = 0;
    stretchRun_ = 0;
    stats_.resets++;
}

JitterBuffer::Slot* JitterBuffer::Find(uint16_t sequence) noexcept
{
    Slot& slot = slots_[sequence % kCapacity];
    return slot.used && slot.sequence == sequence ? &slot : nullptr;
}

void JitterBuffer::Release(Slot* slot) noexcept
{
    slot->used = false;
    buffered_--;
}

void JitterBuffer::UpdateJitter(uint32_t timestamp, double nowMs) noexcept
{
    if (haveArrival_) {
        // D(i-1, i) of RFC 3550 §6.4.1, in milliseconds; timestamps run at 48 kHz.
        const double transit = (nowMs - lastArrivalMs_) -
                               static_cast<int32_t>(timestamp - lastTimestamp_) / (kSampleRate / 1000.0);
        jitterMs_ += (std::fabs(transit) - jitterMs_) / 16.0;
    }
    haveArrival_ = true;
    lastArrivalMs_ = nowMs;
    lastTimestamp_ = timestamp;
    const double excess = 2.0 * jitterMs_ - kJitterSlackMs;
    const double wanted = 1.0 + std::ceil((excess > 0.0 ? excess : 0.0) / kFrameMs);
    const double low = config_.minDelayFrames;
    const double high = config_.maxDelayFrames;
    target_ = static_cast<uint32_t>(wanted < low ? low : (wanted > high ? high : wanted));
}

AudioResult JitterBuffer::Push(uint16_t sequence, uint32_t timestamp, ByteView payload, double nowMs) noexcept
{
    if (payload.empty() || payload.size() > kMaxOpusPacketSize) {
        stats_.invalid++;
        return payload.empty() ? AudioResult::kInvalidPacket : AudioResult::kPacketTooLarge;
    }
    if (havePlayed_ && SequenceDelta(sequence, lastPlayed_) <= 0) {
        stats_.late++;
        return AudioResult::kLatePacket;
    }
    if (Find(sequence) != nullptr) {
        stats_.duplicate++;
        return AudioResult::kDuplicatePacket;
    }
    if (buffered_ == 0 && !playing_) {
        next_ = sequence;
    } else if (SequenceDelta(sequence, next_) >= static_cast<int32_t>(kCapacity) ||
               SequenceDelta(sequence, next_) <= -static_cast<int32_t>(kCapacity)) {
        // A jump the buffer cannot span (a restarted sender): start over from this packet.
        Reset();
        havePlayed_ = false;
        next_ = sequence;
    } else if (!playing_ && SequenceDelta(sequence, next_) < 0) {
        next_ = sequence; // still buffering: an earlier packet arrived after a later one
    }
    Slot& slot = slots_[sequence % kCapacity];
    if (slot.used) {
        // An old packet that was never played (it was beyond the playout point by a whole lap).
        Release(&slot);
        stats_.dropped++;
    }
    slot.used = true;
    slot.sequence = sequence;
    slot.timestamp = timestamp;
    slot.size = static_cast<uint16_t>(payload.size());
    std::memcpy(Payload(&slot), payload.data(), payload.size());
    buffered_++;
    stats_.pushed++;
    UpdateJitter(timestamp, nowMs);
    return AudioResult::kOk;
}

void JitterBuffer::Pause() noexcept
{
    playing_ = false;
    concealRun_ = 0;
    stretchRun_ = 0;
    haveArrival_ = false;
    if (havePlayed_) {
        lastPlayed_ = lastReal_;
    }
}

void JitterBuffer::Advance() noexcept
{
    lastPlayed_ = next_;
    havePlayed_ = true;
    next_ = static_cast<uint16_t>(next_ + 1);
}

AudioResult JitterBuffer::Pop(MutableByteView out, JitterFrame* frame) noexcept
{
    *frame = JitterFrame{};
    if (peakTicksLeft_ > 0 && --peakTicksLeft_ == 0) {
        peakTarget_ = 0;
    }
    const uint32_t target = TargetDelayFrames();
    if (!playing_) {
        if (buffered_ < target) {
            stats_.empty++;
            return AudioResult::kOk;
        }
        playing_ = true;
        concealRun_ = 0;
    }
    // Too much delay built up: skip the oldest frame, once per tick. Only once the excess has lasted
    // kExcessTicksBeforeDrop ticks: right after a stall the late packets arrive in a burst, and dropping
    // then would throw away speech the next ticks play anyway.
    excessTicks_ = buffered_ > target + 2 ? excessTicks_ + 1 : 0;
    if (excessTicks_ >= kExcessTicksBeforeDrop) {
        if (Slot* stale = Find(next_)) {
            Release(stale);
        }
        Advance();
        stats_.dropped++;
    }
    frame->sequence = next_;
    if (Slot* slot = Find(next_)) {
        if (out.size() < slot->size) {
            return AudioResult::kBufferTooSmall;
        }
        std::memcpy(out.data(), Payload(slot), slot->size);
        frame->kind = JitterFrameKind::kPacket;
        frame->size = slot->size;
        frame->timestamp = slot->timestamp;
        lastWasSilence_ = IsOpusSilenceFrame(Payload(slot), slot->size);
        lastReal_ = next_;
        Release(slot);
        Advance();
        if (stretchRun_ > 0) {
            // The packet came stretchRun_ ticks late: hold that much delay (see the class comment).
            const uint32_t peak = std::min(stretchRun_ + 1, config_.maxDelayFrames);
            peakTarget_ = std::max(peakTarget_, peak);
            peakTicksLeft_ = kPeakHoldTicks;
            stretchRun_ = 0;
        }
        concealRun_ = 0;
        stats_.packets++;
        return AudioResult::kOk;
    }
    if (buffered_ == 0 && ((lastWasSilence_ && concealRun_ == 0) || concealRun_ >= kMaxConcealRun)) {
        // The sender ended its transmission (or vanished): pause, and rebuffer from its next packet.
        Pause();
        stats_.pauses++;
        stats_.empty++;
        return AudioResult::kOk;
    }
    if (Slot* following = Find(static_cast<uint16_t>(next_ + 1))) {
        if (out.size() < following->size) {
            return AudioResult::kBufferTooSmall;
        }
        // The next packet stays buffered: it is played in its own right on the next tick.
        std::memcpy(out.data(), Payload(following), following->size);
        frame->kind = JitterFrameKind::kFec;
        frame->size = following->size;
        frame->timestamp = following->timestamp - kFrameTimestampStep;
        stats_.fec++;
    } else {
        frame->kind = JitterFrameKind::kConceal;
        stats_.concealed++;
        if (buffered_ == 0) {
            // Nothing after the gap either: the packet is more likely late (a sender or network stall)
            // than lost. Conceal without moving the playout point, so it still plays when it arrives:
            // the delay grows by a frame instead of a real frame being thrown away as late.
            stats_.stretched++;
            stretchRun_++;
            concealRun_++;
            return AudioResult::kOk;
        }
    }
    stretchRun_ = 0; // the gap was a loss after all: a later packet is here
    Advance();
    concealRun_++;
    return AudioResult::kOk;
}

} // namespace sdkpp::audio
