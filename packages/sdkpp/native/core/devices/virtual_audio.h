#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "core/devices/linked_audio.h"
#include "core/devices/sample_ring.h"

namespace sdkpp::devices {

// The SDK's virtual devices (a WAV file or nothing as the microphone, the null speaker) in a form a voice
// transport's thread reads and writes itself (LinkedAudio), so that a call on them costs the JavaScript
// thread no work per frame. The owner fills the input ring ahead of time from its file, a second or more at
// once (PushInput, on the owner's thread), and the transport's thread takes one frame per tick. While no
// transport reads it, the owner takes its frames from the same ring (ReadInput, on its own thread), so a file
// goes on from where it was whichever side reads it. What the transport plays is counted and discarded.
class VirtualAudio final : public LinkedAudio {
public:
    // The input ring: 4 s of 48 kHz stereo, so that an owner who tops it up every second or so has slack.
    static constexpr size_t kInputCapacity = 48000 * 2 * 4;

    VirtualAudio() : input_(kInputCapacity) {}

    // Owner: queues microphone samples; returns how many fitted.
    size_t PushInput(const int16_t* in, size_t count) noexcept { return input_.Write(in, count); }
    // The samples waiting in the input ring (exact on the reader's thread, a snapshot elsewhere).
    size_t InputQueued() const noexcept { return input_.Available(); }
    // Samples the speaker side took since this object was made.
    uint64_t OutputSamples() const noexcept { return output_.load(std::memory_order_relaxed); }

    // The backlog bound is not applied: what waits here is a file read ahead on purpose, not a device
    // running ahead of its reader, and none of it may be lost.
    bool ReadInput(int16_t* out, size_t count, size_t /*maxBacklog*/) noexcept override
    {
        return input_.Read(out, count);
    }
    size_t WriteOutput(const int16_t* /*in*/, size_t count) noexcept override
    {
        output_.store(output_.load(std::memory_order_relaxed) + count, std::memory_order_relaxed);
        return count;
    }

private:
    SampleRing input_;
    std::atomic<uint64_t> output_{0};
};

} // namespace sdkpp::devices
