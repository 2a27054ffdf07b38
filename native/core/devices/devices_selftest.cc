#include "core/devices/devices_selftest.h"

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

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
    return report;
}

} // namespace sdkpp::devices
