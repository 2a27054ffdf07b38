#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/devices/capture_reader.h"
#include "core/devices/linked_audio.h"
#include "core/devices/sample_ring.h"
#include "core/devices/system_audio.h"

namespace sdkpp::devices {

struct ProcessingStats {
    uint64_t captureBlocks = 0;     // microphone blocks handed to the processing thread
    uint64_t processedSamples = 0;  // samples the processing thread handed back
    uint64_t processedDropped = 0;  // processed samples nobody read in time (the transport fell behind)
    uint64_t renderDropped = 0;     // playout samples the processing thread did not take in time
};

// Voice processing between the system devices and a voice transport's thread, run by a thread of the
// owner's choosing (in sdkpp, a worker thread with the WebAssembly echo canceller, noise suppressor and
// gain control). The transport links this object instead of the SystemAudio:
//
//   microphone ring ──ReadCapture──▶ processing thread ──WriteProcessed──▶ processed ring ──ReadInput──▶ transport
//   transport ──WriteOutput──▶ speaker ring, and a copy ──▶ playout ring ──ReadRender──▶ processing thread
//
// Every ring is single-producer single-consumer and lock-free; neither the device callbacks nor the
// transport's thread ever waits for the processing thread. When it falls behind, the transport sends
// what is there (or nothing), and bounded rings drop the oldest audio.
//
// The processing thread reads the microphone only while the transport's thread has linked this object for
// capture (CaptureLinked): before that and after, the microphone belongs to whoever else reads it.
class ProcessingLink final : public LinkedAudio {
public:
    explicit ProcessingLink(std::shared_ptr<SystemAudio> system);

    // Transport side (LinkedAudio): processed frames in, playout out (to the speaker and the playout ring).
    bool ReadInput(int16_t* out, size_t count, size_t maxBacklog) noexcept override;
    size_t WriteOutput(const int16_t* in, size_t count) noexcept override;
    void CaptureLinked(bool linked) noexcept override;
    bool ProcessesCapture() const noexcept override { return true; }

    // Processing side (one thread): `count` microphone samples when they are there, waiting at most
    // `wait` for them (false when they did not come, or the transport has not linked this object).
    bool ReadCapture(int16_t* out, size_t count, std::chrono::milliseconds wait) noexcept;
    // The next `count` samples of what the speaker played, when that many are there: what the transport
    // wrote, moved as the devices moved the echo (SystemAudio::EchoShifted), so that the echo canceller's
    // delay stays where it found it.
    bool ReadRender(int16_t* out, size_t count) noexcept;
    // Processed microphone samples for the transport; returns how many fitted.
    size_t WriteProcessed(const int16_t* in, size_t count) noexcept;

    ProcessingStats Stats() const noexcept;

private:
    std::shared_ptr<SystemAudio> system_;
    SampleRing processed_;
    SampleRing render_;
    CaptureReader processedReader_;
    // The transport lets the processing thread read the microphone (a Dekker pair: the transport clears
    // armed_ and then waits until reading_ is clear; the reader sets reading_ and then checks armed_).
    std::atomic<bool> armed_{false};
    std::atomic<bool> reading_{false};
    std::atomic<uint64_t> captureBlocks_{0};
    std::atomic<uint64_t> processedSamples_{0};
    std::atomic<uint64_t> processedDropped_{0};
    std::atomic<uint64_t> renderDropped_{0};
    // The processing thread's: the devices' echo shift last seen, and what of it the reference still owes.
    void FollowEchoShift() noexcept;
    bool shiftSeen_ = false;
    EchoShift shiftSeenAt_;
    uint64_t skipOwed_ = 0;
    uint64_t silenceOwed_ = 0;
};

} // namespace sdkpp::devices
