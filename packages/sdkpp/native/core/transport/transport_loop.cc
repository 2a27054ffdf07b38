// The transport thread: its clock, ticking at absolute 20 ms deadlines, and between ticks waiting for
// datagrams (the deadline is the wait's timeout).
#include <chrono>

#include "core/audio/alloc_counter.h"
#include "core/transport/thread_priority.h"
#include "core/transport/voice_transport.h"
#include "core/transport/voice_transport_impl.h"

namespace sdkpp::transport {
namespace {

// Further behind than this (the process was suspended), the clock restarts instead of sending a burst.
constexpr auto kResyncAfter = std::chrono::milliseconds(200);
constexpr auto kLateTick = std::chrono::milliseconds(2);
// How long before its deadline a tick's packet is made (PrepareSend). It covers the encoding (about 0.3 ms)
// and the few milliseconds a loaded core may take the thread away meanwhile (bench/pacing.ts); the owner
// hands its frame over earlier still (the audio pump's lead, 5 ms), and one that comes later still goes in
// its tick, made at the deadline.
constexpr auto kPrepareLead = std::chrono::microseconds(3000);

} // namespace

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
    PrepareSpeakers();
    // Absolute deadlines: a late tick does not push the next one back, so lateness never accumulates.
    Clock::time_point deadline = Clock::now() + kTick;
    PublishDeadline(deadline);
    uint64_t tick = 0;
    while (!stop.load(std::memory_order_acquire)) {
        // The tick's packet is made kPrepareLead before its deadline, so what must happen on time is only
        // the send: a thread preempted while it encodes (a busy core) still sends at the deadline.
        WaitAndReceive(deadline - kPrepareLead);
        if (stop.load(std::memory_order_acquire)) {
            break;
        }
        ApplyCommands();
        // Key changes may allocate (rarely); PrepareSend applies those queued with its frame, and the
        // counted part leaves them out (commandAllocations).
        commandAllocations = 0;
        uint64_t before = audio::AllocationCount();
        const bool madeEarly = PrepareSend(MsSince(origin, Clock::now()), true);
        uint64_t allocated = audio::AllocationCount() - before - commandAllocations;
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
        tickLateness.Record(latenessUs);
        if (latenessUs > maxLatenessUs.load(std::memory_order_relaxed)) {
            maxLatenessUs.store(latenessUs, std::memory_order_relaxed);
        }
        commandAllocations = 0;
        before = audio::AllocationCount();
        if (!madeEarly) {
            PrepareSend(MsSince(origin, now), false); // the frame came late, or there is none this tick
        }
        SendPrepared();
        MixTick();
        allocated += audio::AllocationCount() - before - commandAllocations;
        if (tick >= 2) { // the first ticks may warm lazily created state
            Bump(allocationsInTicks, allocated);
        }
        ++tick;
        deadline += kTick;
        if (now - deadline > kResyncAfter) {
            deadline = now + kTick;
        }
        PublishDeadline(deadline); // before the count, so a reader that sees this tick sees the next deadline
        Bump(ticks);
    }
    nextTickUs.store(0, std::memory_order_relaxed); // no next tick: stats say 0
    // A processing thread reading the microphone on this thread's behalf stops before the owner reads it.
    Relink(nullptr, false, false);
}

// Every speaker slot's decoder and DAVE decryptor, made here before the ticks start rather than by the owner
// in Create: 32 of each cost milliseconds (libopus probes the CPU for each decoder, which a virtual machine
// traps), and the owner is the game's JS thread, in the middle of joining a call. Nothing reads a slot before
// the first tick: packets are received and commands applied only from the tick loop on. A slot whose parts
// could not be made (no memory) is never given to a speaker (FindSpeaker).
void VoiceTransport::Impl::PrepareSpeakers() noexcept
{
    audio::AudioResult result = audio::AudioResult::kOk;
    for (Speaker& speaker : speakers) {
        if (!speaker.decoder) {
            speaker.decoder = audio::OpusDecoder::Create(&result);
        }
        if (!speaker.decryptor) {
            speaker.decryptor = dave::Decryptor::Create(&daveClock, true);
        }
    }
}

void VoiceTransport::Impl::WaitAndReceive(Clock::time_point deadline) noexcept
{
    while (!stop.load(std::memory_order_acquire) && Clock::now() < deadline) {
        if (socket.WaitReadable(deadline)) {
            ApplyCommands(); // a key set just before the first packet must open it
            ReceiveAll();
        }
    }
}

} // namespace sdkpp::transport
