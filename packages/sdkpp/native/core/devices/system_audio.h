#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/devices/linked_audio.h"

namespace sdkpp::devices {

// The system's microphones and speakers through miniaudio (native/core/devices/miniaudio_impl.cc), which
// loads its backend at run time: PulseAudio/PipeWire, ALSA or JACK on Linux, WASAPI on Windows, Core Audio
// on macOS. Audio crosses at 48 kHz interleaved stereo 16-bit, miniaudio converting from the device's own
// format, through lock-free rings: the device callbacks never wait for the thread that reads or writes.
//
// A watcher thread enumerates the devices every 500 ms. A change in the list or in the defaults becomes a
// kDevicesChanged event. A chosen device that leaves the list, or a running stream whose callbacks stop
// (miniaudio does not notice an unplugged device on every backend; the stream just stalls), is closed
// and reopened on the system default, which a kDeviceLost event reports: the audio goes on.

enum class Direction : uint8_t { kInput, kOutput };

struct DeviceInfo {
    std::string id;    // stable across enumerations while the device exists (the backend's own name)
    std::string name;  // for people
    bool isDefault = false;
};

struct DeviceEvent {
    enum class Kind : uint8_t { kDevicesChanged, kDeviceLost };
    Kind kind = Kind::kDevicesChanged;
    Direction direction = Direction::kInput;
    std::string lostId;      // kDeviceLost: the device that went away (empty: it was the default)
    // kDeviceLost: "removed" (gone from the list), "stalled" (no callbacks), or "recovered" (an earlier
    // fallback that failed has now opened the default)
    std::string reason;
    bool fallbackOpened = false;  // kDeviceLost: the stream now runs on the default device
    std::string fallbackName;  // kDeviceLost: that device's name (or why it could not be opened)
};

struct StreamStatus {
    bool open = false;
    bool followsDefault = false;  // opened without an id: the backend routes it to the default
    std::string id;               // the device asked for (empty: the default)
    std::string name;             // the device's name as the backend reports it
    uint64_t callbacks = 0;       // device periods handled
    uint64_t droppedSamples = 0;  // capture: the reader fell behind; output: the writer ran ahead
    uint64_t missingSamples = 0;  // output: the device wanted audio that was not there (played as silence)
    uint64_t underruns = 0;       // output: times the ring ran dry (each one a gap the listener hears)
    // Callbacks that came more than two device periods (and at least kLateCallbackMs) after the previous
    // one: the device's thread was not run in time (a busy machine), or the server did not ask in time.
    uint64_t lateCallbacks = 0;
    uint32_t longestGapMs = 0;    // the longest time between two callbacks since the stream opened
    // What the thread that calls back got when it asked to run ahead of ordinary threads (a
    // transport::ThreadPriority: 0 nothing yet or refused, 1 nice -10, 2 real-time, 3 a short slice, ...).
    uint8_t priority = 0;
    uint32_t reopened = 0;        // fallbacks to the default
    // Output on PulseAudio: how much the sound server is asked to hold ahead of the device (see
    // kServerTargetMaxMs in system_audio.cc); 0 where the backend's own default applies.
    uint32_t serverBufferMs = 0;
};

// The speaker's and the microphone's rings move the echo against what the transport wrote: a sample written
// to the speaker and never played, or a microphone sample dropped unread, makes every later echo come that
// much earlier in the microphone's stream (`skipped`); silence the speaker played that nobody wrote (its ring
// ran dry, then built its cushion again) makes it come later (`inserted`). An echo canceller fed what was
// written would see its echo path jump each time, and lose the echo until it found it again; the processing
// link moves its reference by the same amounts instead (ProcessingLink::ReadRender).
struct EchoShift {
    uint64_t skipped = 0;
    uint64_t inserted = 0;
};

inline constexpr uint32_t kSampleRate = 48000;
inline constexpr uint32_t kChannels = 2;
inline constexpr uint32_t kPeriodFrames = 480;  // 10 ms: what the device is asked to deliver per callback
inline constexpr uint32_t kLateCallbackMs = 30;  // StreamStatus::lateCallbacks: at least three periods

class SystemAudio : public LinkedAudio {
public:
    // The backend in use, such as "PulseAudio" or "ALSA".
    virtual std::string Backend() const = 0;
    virtual std::vector<DeviceInfo> List(Direction direction) = 0;

    // Opens the stream of `direction` on the device with `id` (empty: follow the system default),
    // replacing any open one. False with `error` set when the id is unknown or the device will not start.
    virtual bool Open(Direction direction, const std::string& id, std::string* error) = 0;
    virtual void Close(Direction direction) = 0;
    virtual StreamStatus Status(Direction direction) = 0;

    // ReadInput (one reader thread) and WriteOutput (one writer thread), as LinkedAudio describes them,
    // are the microphone's and the speaker's rings.
    virtual size_t InputAvailable() const noexcept = 0;
    virtual size_t OutputQueued() const noexcept = 0;

    // Events since the last call, oldest first (at most 64 are kept; older ones are dropped).
    virtual std::vector<DeviceEvent> TakeEvents() = 0;

    // How far the devices moved the echo against the audio written to the speaker, in samples since the
    // system started (both only grow); see EchoShift. Backends without rings of their own report none.
    virtual EchoShift EchoShifted() const noexcept { return {}; }
};

// Starts the library and the watcher thread, or returns null with `error` saying why (no backend could
// start, or this build has no system audio).
std::unique_ptr<SystemAudio> CreateSystemAudio(std::string* error);

// Whether this build carries system audio at all.
bool SystemAudioBuilt() noexcept;

} // namespace sdkpp::devices
