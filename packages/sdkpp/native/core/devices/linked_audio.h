#pragma once

#include <cstddef>
#include <cstdint>

namespace sdkpp::devices {

// What a voice transport's thread reads its microphone frames from and writes its speaker frames to when
// devices are linked to it (transport::VoiceTransport::LinkDevices): the system devices themselves, or a
// ProcessingLink that puts voice processing between them and the transport.
class LinkedAudio {
public:
    virtual ~LinkedAudio() = default;

    // Capture side (one reader thread): copies exactly `count` samples when they are there. Samples that
    // stay waiting beyond `maxBacklog` for a whole second (the lowest backlog of the window) are dropped,
    // oldest first, so latency stays bounded while a bursty source loses nothing.
    virtual bool ReadInput(int16_t* out, size_t count, size_t maxBacklog) noexcept = 0;
    // Playback side (one writer thread): queues samples; returns how many fitted.
    virtual size_t WriteOutput(const int16_t* in, size_t count) noexcept = 0;
    // The transport's thread starts (true) or stops (false) reading the input through this object. Once
    // the call with false returns, nothing else reads the microphone on this object's behalf.
    virtual void CaptureLinked(bool /*linked*/) noexcept {}
    // Whether the input passes a processing thread on its way (a ProcessingLink), as the transport's stats
    // report.
    virtual bool ProcessesCapture() const noexcept { return false; }
};

} // namespace sdkpp::devices
