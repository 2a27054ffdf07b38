#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "core/devices/sample_ring.h"

namespace sdkpp::devices {

// The reading end of a capture ring with the latency kept bounded (one reader thread):
//  - half a read of cushion first, rebuilt after every underrun. A source that delivers every 10 ms just
//    after a read would otherwise leave the next read short now and then, and each miss delays the rest of
//    the audio by a frame. (A whole frame of cushion cost 20 ms of capture-to-wire in
//    bench/captureToWire.ts; half a frame measured the same as none, without the misses.)
//  - Sources deliver in bursts (a PulseAudio monitor in chunks of 25 ms and more, any device when its
//    stream starts), so the backlog after a read swings. Only what stays above the bound for a whole second
//    of reads is latency to drop: the lowest backlog of that window, less the bound.
//  - That excess goes in the next pause (DropQuiet: 5 ms blocks below kQuietPeak followed by 25 ms more of
//    them), so a word is not cut; a source with no pause for kForceWindows windows (a noisy room) has it cut
//    where it is.
class CaptureReader {
public:
    // −40 dBFS: below a voice, above the noise floor of a quiet microphone or Opus's comfort noise.
    static constexpr int kQuietPeak = 328;
    static constexpr int kForceWindows = 3;

    // `windowSamples`: how many samples read make one window (a second of the ring's audio).
    explicit CaptureReader(size_t windowSamples) : windowSamples_(windowSamples) {}

    bool Read(SampleRing& ring, int16_t* out, size_t count, size_t maxBacklog,
              std::atomic<uint64_t>& dropped) noexcept
    {
        if (!primed_ && ring.Available() < count + count / 2) return false;
        if (!ring.Read(out, count)) {
            primed_ = false;
            pending_ = 0; // an underrun: no latency left to give back
            return false;
        }
        primed_ = true;
        if (pending_ > 0) {
            // Keeps a read and a half, as the cushion does.
            const size_t quiet = ring.DropQuiet(pending_, count + count / 2, windowSamples_ / 200, windowSamples_ / 40,
                                                kQuietPeak);
            pending_ -= quiet;
            if (quiet > 0) dropped.fetch_add(quiet, std::memory_order_relaxed);
        }
        const size_t backlog = ring.Available();
        minBacklog_ = std::min(minBacklog_, backlog);
        windowRead_ += count;
        if (windowRead_ >= windowSamples_) {
            const size_t excess = minBacklog_ > maxBacklog ? minBacklog_ - maxBacklog : 0;
            pendingWindows_ = excess > 0 ? pendingWindows_ + 1 : 0;
            pending_ = excess;
            if (pendingWindows_ >= kForceWindows) {
                const size_t trimmed = ring.TrimTo(backlog - std::min(backlog, excess));
                if (trimmed > 0) dropped.fetch_add(trimmed, std::memory_order_relaxed);
                pending_ = 0;
                pendingWindows_ = 0;
            }
            windowRead_ = 0;
            minBacklog_ = SIZE_MAX;
        }
        return true;
    }

private:
    size_t windowSamples_;
    size_t pending_ = 0;       // latency to give back in the next pause
    int pendingWindows_ = 0;   // windows in a row that found latency to give back
    bool primed_ = false;
    size_t minBacklog_ = SIZE_MAX;
    size_t windowRead_ = 0;
};

} // namespace sdkpp::devices
