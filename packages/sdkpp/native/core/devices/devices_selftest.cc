#include "core/devices/devices_selftest.h"

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "core/devices/capture_reader.h"
#include "core/devices/processing_link.h"
#include "core/devices/sample_ring.h"

namespace sdkpp::devices {
namespace {

int16_t SampleAt(uint64_t index)
{
    return static_cast<int16_t>(static_cast<uint16_t>(index * 2654435761u >> 7));
}

// Writes and reads blocks of odd sizes through a small ring many times over: every wrap position.
bool WrapsAround()
{
    SampleRing ring(64);
    if (ring.Capacity() != 64) return false;
    uint64_t written = 0;
    uint64_t read = 0;
    int16_t block[37];
    int16_t out[37];
    for (int round = 0; round < 500; ++round) {
        const size_t size = 1 + static_cast<size_t>(round % 37);
        for (size_t i = 0; i < size; ++i) block[i] = SampleAt(written + i);
        if (ring.Write(block, size) != size) return false;
        written += size;
        if (!ring.Read(out, size)) return false;
        for (size_t i = 0; i < size; ++i) {
            if (out[i] != SampleAt(read + i)) return false;
        }
        read += size;
    }
    return ring.Available() == 0;
}

// A full ring keeps what fits and says so; a read of more than is there takes nothing.
bool KeepsWhatFits()
{
    SampleRing ring(16);
    int16_t block[20] = {};
    for (int16_t i = 0; i < 20; ++i) block[i] = i;
    if (ring.Write(block, 20) != 16) return false;
    if (ring.Write(block, 1) != 0) return false;
    int16_t out[20] = {};
    if (ring.Read(out, 17)) return false;
    if (ring.Available() != 16) return false;
    if (!ring.Read(out, 16)) return false;
    for (int16_t i = 0; i < 16; ++i) {
        if (out[i] != i) return false;
    }
    return ring.Read(out, 0) && !ring.Read(out, 1);
}

// Trimming drops the oldest samples and leaves the newest in order.
bool TrimsOldest()
{
    SampleRing ring(32);
    int16_t block[30];
    for (int16_t i = 0; i < 30; ++i) block[i] = i;
    ring.Write(block, 30);
    if (ring.TrimTo(40) != 0) return false;
    if (ring.TrimTo(10) != 20) return false;
    int16_t out[10];
    if (!ring.Read(out, 10)) return false;
    for (int16_t i = 0; i < 10; ++i) {
        if (out[i] != 20 + i) return false;
    }
    return ring.Available() == 0;
}

// One producer and one consumer thread, blocks of varying sizes, a million samples: the consumer sees the
// exact sequence.
bool TwoThreads()
{
    constexpr uint64_t kTotal = 1 << 20;
    SampleRing ring(4096);
    std::atomic<bool> ok{true};
    std::thread producer([&] {
        std::vector<int16_t> block(960);
        uint64_t next = 0;
        size_t size = 1;
        while (next < kTotal) {
            size = 1 + (size * 7 + 3) % 960;
            const size_t n = static_cast<size_t>(std::min<uint64_t>(size, kTotal - next));
            for (size_t i = 0; i < n; ++i) block[i] = SampleAt(next + i);
            size_t done = 0;
            while (done < n) {
                const size_t put = ring.Write(block.data() + done, n - done);
                done += put;
                if (put == 0) std::this_thread::yield();
            }
            next += n;
        }
    });
    std::vector<int16_t> out(480);
    uint64_t expected = 0;
    while (expected < kTotal) {
        const size_t want = static_cast<size_t>(std::min<uint64_t>(480, kTotal - expected));
        if (!ring.Read(out.data(), want)) {
            std::this_thread::yield();
            continue;
        }
        for (size_t i = 0; i < want; ++i) {
            if (out[i] != SampleAt(expected + i)) ok = false;
        }
        expected += want;
    }
    producer.join();
    return ok && ring.Available() == 0;
}

// The capture reader waits for half a read of cushion, then reads exactly; after an underrun it waits again.
// A loud backlog that stays above the bound has no pause to go in: it is cut, and counted, only after
// CaptureReader::kForceWindows windows in a row.
bool ReaderBoundsLatency()
{
    SampleRing ring(4096);
    CaptureReader reader(1000);
    std::atomic<uint64_t> dropped{0};
    std::vector<int16_t> block(1500);
    for (size_t i = 0; i < block.size(); ++i) block[i] = SampleAt(i);
    int16_t out[100];
    ring.Write(block.data(), 120);
    if (reader.Read(ring, out, 100, 200, dropped)) return false; // 120 < 150: no cushion yet
    ring.Write(block.data() + 120, 60);
    if (!reader.Read(ring, out, 100, 200, dropped) || out[0] != SampleAt(0)) return false;
    if (reader.Read(ring, out, 100, 200, dropped)) return false; // 80 left: an underrun
    ring.Write(block.data() + 180, 1000);
    // 1080 waiting against a bound of 200, windows of ten reads. The first window held the underrun (its low
    // point is 80); the second, third and fourth find 980 and more; the fourth's end cuts the excess.
    for (int i = 0; i < 39; ++i) {
        if (i == 29 && dropped.load() != 0) return false; // two windows of excess, not yet cut
        if (!reader.Read(ring, out, 100, 200, dropped)) return false;
        ring.Write(block.data() + 180, 100);
    }
    return dropped.load() > 0 && ring.Available() <= 200 + 100;
}

// Quiet blocks go from the oldest end, up to the first loud sample; a quiet backlog above the bound is
// given back at the first read after the window that found it, keeping a read and a half.
bool ReaderGivesLatencyBackInPauses()
{
    // 12 quiet samples, one loud, 17 quiet: with blocks of 5 and 5 of lookahead, the first pause gives 5
    // (the next 5 must stay, and the block after would reach the loud one); the second gives 10.
    SampleRing small(64);
    int16_t mixed[30] = {};
    mixed[12] = 4000;
    small.Write(mixed, 30);
    if (small.DropQuiet(100, 0, 5, 5, CaptureReader::kQuietPeak) != 5 || small.Available() != 25) return false;
    int16_t skip[8];
    if (!small.Read(skip, 8)) return false; // up to and including the loud sample
    if (small.DropQuiet(100, 0, 5, 5, CaptureReader::kQuietPeak) != 10 || small.Available() != 7) return false;
    SampleRing ring(4096);
    CaptureReader reader(1000);
    std::atomic<uint64_t> dropped{0};
    const std::vector<int16_t> quiet(1200, 40);
    int16_t out[100];
    ring.Write(quiet.data(), 1180);
    for (int i = 0; i < 12; ++i) {
        if (!reader.Read(ring, out, 100, 200, dropped)) return false;
        ring.Write(quiet.data(), 100);
    }
    // The first window (ten reads) found 1080 against 200; the next read gave 880 back in 5-sample blocks.
    return dropped.load() == 880 && ring.Available() == 300;
}

// A SystemAudio for the processing link's checks: its microphone yields a counting sequence and notes
// whether two threads ever read it at once.
class CountingDevices final : public SystemAudio {
public:
    std::string Backend() const override { return "counting"; }
    std::vector<DeviceInfo> List(Direction) override { return {}; }
    bool Open(Direction, const std::string&, std::string*) override { return true; }
    void Close(Direction) override {}
    StreamStatus Status(Direction) override { return {}; }
    size_t InputAvailable() const noexcept override { return 1 << 20; }
    size_t OutputQueued() const noexcept override { return 0; }
    std::vector<DeviceEvent> TakeEvents() override { return {}; }
    bool ReadInput(int16_t* out, size_t count, size_t) noexcept override
    {
        if (inside_.fetch_add(1) != 0) overlapped_ = true;
        for (size_t i = 0; i < count; ++i) out[i] = SampleAt(next_ + i);
        next_ += count;
        std::this_thread::yield(); // widen the window a second reader would hit
        inside_.fetch_sub(1);
        return true;
    }
    size_t WriteOutput(const int16_t*, size_t count) noexcept override
    {
        played_ += count;
        return count;
    }
    EchoShift EchoShifted() const noexcept override
    {
        EchoShift shift;
        shift.skipped = skipped_.load();
        shift.inserted = inserted_.load();
        return shift;
    }
    void Shift(uint64_t skipped, uint64_t inserted)
    {
        skipped_ += skipped;
        inserted_ += inserted;
    }
    bool Overlapped() const { return overlapped_.load(); }
    uint64_t Played() const { return played_.load(); }

private:
    std::atomic<int> inside_{0};
    std::atomic<bool> overlapped_{false};
    uint64_t next_ = 0;
    std::atomic<uint64_t> played_{0};
    std::atomic<uint64_t> skipped_{0};
    std::atomic<uint64_t> inserted_{0};
};

// The microphone changes hands between the transport's thread (reading it itself while unlinked) and the
// processing thread (while linked) thousands of times, and the two never read it at once; nothing is read
// by the processing thread before the first link.
bool LinkHandsOverTheMicrophone()
{
    auto devices = std::make_shared<CountingDevices>();
    ProcessingLink link(devices);
    int16_t block[960];
    if (link.ReadCapture(block, 960, std::chrono::milliseconds(0))) return false; // not linked yet
    std::atomic<bool> done{false};
    std::atomic<uint64_t> processed{0};
    std::thread processing([&] {
        int16_t mine[960];
        while (!done.load()) {
            if (link.ReadCapture(mine, 960, std::chrono::milliseconds(1))) processed.fetch_add(1);
        }
    });
    int16_t own[960];
    for (int round = 0; round < 2000; ++round) {
        link.CaptureLinked(true);
        std::this_thread::yield();
        link.CaptureLinked(false);
        devices->ReadInput(own, 960, 0); // the transport (or the pump) reads the microphone itself
    }
    done = true;
    processing.join();
    return !devices->Overlapped() && processed.load() > 0;
}

// Processed audio reaches the transport in order, after half a read of cushion; what the transport plays
// goes to the speaker and, in order, to the processing thread's playout reference.
bool LinkPassesProcessedAndPlayout()
{
    auto devices = std::make_shared<CountingDevices>();
    ProcessingLink link(devices);
    std::vector<int16_t> block(960);
    for (size_t i = 0; i < block.size(); ++i) block[i] = SampleAt(i);
    std::vector<int16_t> frame(1920);
    link.WriteProcessed(block.data(), 960);
    link.WriteProcessed(block.data(), 960);
    if (link.ReadInput(frame.data(), 1920, 1920)) return false; // 1920 < 2880: the cushion first
    link.WriteProcessed(block.data(), 960);
    if (!link.ReadInput(frame.data(), 1920, 1920)) return false;
    for (size_t i = 0; i < 1920; ++i) {
        if (frame[i] != block[i % 960]) return false;
    }
    link.WriteOutput(block.data(), 960);
    std::vector<int16_t> render(960);
    if (!link.ReadRender(render.data(), 960) || render != block) return false;
    const ProcessingStats stats = link.Stats();
    return devices->Played() == 960 && stats.processedSamples == 2880 && !link.ReadRender(render.data(), 1);
}

// The playout reference moves as the devices moved the echo: samples the speaker dropped (or microphone
// samples dropped) are skipped, silence it played unwritten comes first; a shift both ways cancels out.
bool LinkMovesTheReferenceWithTheEcho()
{
    auto devices = std::make_shared<CountingDevices>();
    devices->Shift(5000, 3000); // before the first look: nothing owed
    ProcessingLink link(devices);
    std::vector<int16_t> written(4800);
    for (size_t i = 0; i < written.size(); ++i) written[i] = SampleAt(i);
    link.WriteOutput(written.data(), written.size());
    std::vector<int16_t> render(960);
    if (!link.ReadRender(render.data(), 960) || render[0] != SampleAt(0)) return false;
    devices->Shift(1920, 0); // the speaker dropped 20 ms
    if (!link.ReadRender(render.data(), 960) || render[0] != SampleAt(960 + 1920)) return false;
    devices->Shift(0, 480); // ... then played 5 ms of silence
    if (!link.ReadRender(render.data(), 960) || render[0] != 0 || render[479] != 0) return false;
    if (render[480] != SampleAt(3840) || render[959] != SampleAt(4319)) return false;
    devices->Shift(960, 960); // both: the echo is where it was
    if (!link.ReadRender(render.data(), 480) || render[0] != SampleAt(4320)) return false;
    return !link.ReadRender(render.data(), 1);
}

} // namespace

bool DevicesSelfTestReport::Ok() const noexcept
{
    for (size_t i = 0; i < count; ++i) {
        if (!checks[i].ok) return false;
    }
    return true;
}

DevicesSelfTestReport RunDevicesSelfTest() noexcept
{
    DevicesSelfTestReport report;
    auto add = [&report](std::string_view name, bool ok) {
        if (report.count < kMaxDevicesChecks) report.checks[report.count++] = {name, ok};
    };
    add("sample ring wraps around", WrapsAround());
    add("sample ring keeps what fits", KeepsWhatFits());
    add("sample ring trims the oldest", TrimsOldest());
    add("sample ring across two threads", TwoThreads());
    add("capture reader bounds the latency", ReaderBoundsLatency());
    add("capture reader gives latency back in pauses", ReaderGivesLatencyBackInPauses());
    add("processing link hands the microphone over", LinkHandsOverTheMicrophone());
    add("processing link passes processed audio and playout", LinkPassesProcessedAndPlayout());
    add("processing link moves the playout reference with the echo", LinkMovesTheReferenceWithTheEcho());
    return report;
}

} // namespace sdkpp::devices
