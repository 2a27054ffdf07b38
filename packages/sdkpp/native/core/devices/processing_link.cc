#include "core/devices/processing_link.h"

#include <algorithm>
#include <cstring>
#include <thread>
#include <utility>

namespace sdkpp::devices {
namespace {

// Half a second each way: far more than a processing thread that keeps up ever holds.
constexpr size_t kRingSamples = kSampleRate * kChannels / 2;
// The microphone's backlog the processing thread keeps (two 10 ms blocks), as the transport's own read does.
constexpr size_t kCaptureBacklog = 2 * kPeriodFrames * kChannels;
// Playout older than this when the processing thread looks is stale (it was away): only the newest stays.
constexpr size_t kRenderStale = kSampleRate * kChannels / 5;
constexpr size_t kRenderKeep = kSampleRate * kChannels / 25;
// How often a waiting processing thread looks at the microphone's ring.
constexpr auto kPollStep = std::chrono::microseconds(500);

} // namespace

ProcessingLink::ProcessingLink(std::shared_ptr<SystemAudio> system)
  : system_(std::move(system)), processed_(kRingSamples), render_(kRingSamples),
    processedReader_(kSampleRate * kChannels)
{
}

bool ProcessingLink::ReadInput(int16_t* out, size_t count, size_t maxBacklog) noexcept
{
    return processedReader_.Read(processed_, out, count, maxBacklog, processedDropped_);
}

size_t ProcessingLink::WriteOutput(const int16_t* in, size_t count) noexcept
{
    const size_t copied = render_.Write(in, count);
    if (copied < count) renderDropped_.fetch_add(count - copied, std::memory_order_relaxed);
    return system_->WriteOutput(in, count);
}

void ProcessingLink::CaptureLinked(bool linked) noexcept
{
    armed_.store(linked, std::memory_order_seq_cst);
    if (linked) return;
    // The reader holds reading_ only around one ring copy, so this ends within microseconds of its thread
    // running again.
    while (reading_.load(std::memory_order_seq_cst)) std::this_thread::yield();
}

bool ProcessingLink::ReadCapture(int16_t* out, size_t count, std::chrono::milliseconds wait) noexcept
{
    const auto deadline = std::chrono::steady_clock::now() + wait;
    for (;;) {
        reading_.store(true, std::memory_order_seq_cst);
        const bool got = armed_.load(std::memory_order_seq_cst) && system_->ReadInput(out, count, kCaptureBacklog);
        reading_.store(false, std::memory_order_seq_cst);
        if (got) {
            captureBlocks_.fetch_add(1, std::memory_order_relaxed);
            return true;
        }
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(kPollStep);
    }
}

void ProcessingLink::FollowEchoShift() noexcept
{
    const EchoShift shift = system_->EchoShifted();
    if (shiftSeen_) {
        skipOwed_ += shift.skipped - shiftSeenAt_.skipped;
        silenceOwed_ += shift.inserted - shiftSeenAt_.inserted;
    }
    // Before the first look there is no delay to keep: the echo canceller has not seen any of it yet.
    shiftSeen_ = true;
    shiftSeenAt_ = shift;
    const uint64_t both = std::min(skipOwed_, silenceOwed_);
    skipOwed_ = std::min<uint64_t>(skipOwed_ - both, kRingSamples);
    silenceOwed_ = std::min<uint64_t>(silenceOwed_ - both, kRingSamples);
    // Whole frames of both channels, so that left stays left.
    const size_t available = render_.Available();
    const size_t skip = static_cast<size_t>(std::min<uint64_t>(skipOwed_, available)) / kChannels * kChannels;
    if (skip > 0) {
        render_.TrimTo(available - skip);
        skipOwed_ -= skip;
    }
}

bool ProcessingLink::ReadRender(int16_t* out, size_t count) noexcept
{
    FollowEchoShift();
    if (render_.Available() > kRenderStale) {
        const size_t dropped = render_.TrimTo(kRenderKeep);
        renderDropped_.fetch_add(dropped, std::memory_order_relaxed);
    }
    const size_t silence = static_cast<size_t>(std::min<uint64_t>(silenceOwed_, count)) / kChannels * kChannels;
    if (silence == 0) return render_.Read(out, count);
    // The speaker played silence that was not written: the reference gets it too, ahead of what follows.
    if (silence < count && !render_.Read(out + silence, count - silence)) return false;
    std::memset(out, 0, silence * sizeof(int16_t));
    silenceOwed_ -= silence;
    return true;
}

size_t ProcessingLink::WriteProcessed(const int16_t* in, size_t count) noexcept
{
    const size_t written = processed_.Write(in, count);
    processedSamples_.fetch_add(written, std::memory_order_relaxed);
    if (written < count) processedDropped_.fetch_add(count - written, std::memory_order_relaxed);
    return written;
}

ProcessingStats ProcessingLink::Stats() const noexcept
{
    ProcessingStats stats;
    stats.captureBlocks = captureBlocks_.load(std::memory_order_relaxed);
    stats.processedSamples = processedSamples_.load(std::memory_order_relaxed);
    stats.processedDropped = processedDropped_.load(std::memory_order_relaxed);
    stats.renderDropped = renderDropped_.load(std::memory_order_relaxed);
    return stats;
}

} // namespace sdkpp::devices
