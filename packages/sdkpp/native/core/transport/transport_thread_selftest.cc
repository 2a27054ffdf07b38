#include "core/transport/transport_thread_selftest.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <thread>

#include "core/audio/audio_format.h"
#include "core/rtp/ip_discovery.h"
#include "core/transport/selftest_reflector.h"
#include "core/transport/spsc_ring.h"
#include "core/transport/voice_transport.h"

namespace sdkpp::transport {

bool TransportThreadSelfTestReport::Ok() const noexcept
{
    for (size_t i = 0; i < count; ++i) {
        if (!checks[i].ok) {
            return false;
        }
    }
    return count > 0;
}

namespace {

// One producer and one consumer thread move 200 000 numbers through a 64-slot ring: every one arrives,
// in order, and the ring is empty at the end.
bool RingAcrossThreads() noexcept
{
    static SpscRing<uint64_t, 64> ring;
    constexpr uint64_t kCount = 200000;
    std::atomic<bool> inOrder{true};
    try {
        std::thread consumer([&] {
            uint64_t expected = 0;
            while (expected < kCount) {
                uint64_t value = 0;
                if (ring.TryPop(&value)) {
                    if (value != expected) {
                        inOrder.store(false);
                    }
                    ++expected;
                }
            }
        });
        for (uint64_t i = 0; i < kCount;) {
            if (ring.TryPush(i)) {
                ++i;
            }
        }
        consumer.join();
    } catch (...) {
        return false;
    }
    uint64_t left = 0;
    return inOrder.load() && ring.Size() == 0 && !ring.TryPop(&left);
}

bool RingBounds() noexcept
{
    SpscRing<int, 4> ring;
    int value = 0;
    bool ok = !ring.TryPop(&value);
    for (int i = 0; i < 4; ++i) {
        ok = ok && ring.TryPush(i);
    }
    ok = ok && !ring.TryPush(99) && ring.Size() == 4;
    for (int i = 0; i < 4; ++i) {
        ok = ok && ring.TryPop(&value) && value == i;
    }
    return ok && !ring.TryPop(&value);
}

// A voice server in miniature on 127.0.0.1: answers IP discovery and sends every other datagram back to
// its sender (the transport then hears itself, as one speaker), plus one burst of junk on request.
class Reflector {
public:
    bool Open() noexcept
    {
        if (!udp_.Open(&port_)) {
            return false;
        }
        try {
            thread_ = std::thread([this] { Run(); });
        } catch (...) {
            return false;
        }
        return true;
    }
    ~Reflector()
    {
        stop_.store(true);
        if (thread_.joinable()) {
            thread_.join();
        }
        udp_.Close();
    }
    uint16_t Port() const noexcept { return port_; }
    void SendJunkOnce() noexcept { junk_.store(true); }

private:
    void Run() noexcept
    {
        uint8_t buffer[2048];
        UdpAddress last{};
        bool haveLast = false;
        while (!stop_.load()) {
            UdpAddress from{};
            size_t got = 0;
            if (udp_.WaitReadable(5) && udp_.ReceiveFrom(MutableByteView(buffer, sizeof(buffer)), &got, &from) &&
                got > 0) {
                last = from;
                haveLast = true;
                Answer(buffer, got, from);
            }
            if (haveLast && junk_.exchange(false)) {
                const uint8_t shortPacket[3] = {1, 2, 3};
                uint8_t forged[60] = {0x80, 120, 0, 1, 0, 0, 0, 0, 0, 0, 0x08, 0xAE};
                Send(shortPacket, sizeof(shortPacket), last);
                Send(forged, sizeof(forged), last);
            }
        }
    }
    void Answer(const uint8_t* data, size_t size, const UdpAddress& from) noexcept
    {
        rtp::IpDiscoveryPacket packet;
        if (rtp::ParseIpDiscovery(ByteView(data, size), &packet) == rtp::Result::kOk &&
            packet.type == rtp::IpDiscoveryType::kRequest) {
            rtp::IpDiscoveryPacket answer;
            answer.type = rtp::IpDiscoveryType::kResponse;
            answer.ssrc = packet.ssrc;
            std::memcpy(answer.address, "127.0.0.1", 9);
            answer.addressSize = 9;
            answer.port = ReflectorSocket::PortOf(from);
            uint8_t out[rtp::kIpDiscoverySize];
            size_t written = 0;
            if (rtp::WriteIpDiscovery(answer, MutableByteView(out, sizeof(out)), &written) == rtp::Result::kOk) {
                Send(out, written, from);
            }
            return;
        }
        Send(data, size, from);
    }
    void Send(const uint8_t* data, size_t size, const UdpAddress& to) noexcept
    {
        udp_.SendTo(ByteView(data, size), to);
    }

    ReflectorSocket udp_;
    uint16_t port_ = 0;
    std::atomic<bool> stop_{false};
    std::atomic<bool> junk_{false};
    std::thread thread_;
};

template <typename Check>
bool WaitUntil(Check check, int timeoutMs) noexcept
{
    for (int waited = 0; waited < timeoutMs; waited += 5) {
        if (check()) {
            return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return check();
}

struct LoopbackOutcome {
    bool created = false;
    bool codecAvailable = true;
    bool discovered = false;
    bool toneBack = false;
    bool silenceTail = false;
    bool junkCounted = false;
    bool speakerOutput = false;
    bool restarted = false;
    bool destroyedRunning = false;
};

double FrameRms(const int16_t* frame) noexcept
{
    double sum = 0;
    for (size_t i = 0; i < audio::kFrameSamples; ++i) {
        const double s = frame[i];
        sum += s * s;
    }
    return std::sqrt(sum / audio::kFrameSamples);
}

// Speaker-output mode: the reflected tone arrives as the transport's own SSRC's unmixed frames with
// rising tick numbers, the mixed ring stays empty meanwhile, and the hot path still allocates nothing.
// A pull never writes past the smallest of its three buffers.
bool SpeakerOutput(VoiceTransport& transport, const int16_t* tone) noexcept
{
    static int16_t drain[4 * audio::kFrameSamples];
    while (transport.PullPcm(Span<int16_t>(drain, sizeof(drain) / sizeof(drain[0]))) > 0) {
    }
    if (transport.SetSpeakerOutput(true) != TransportResult::kOk) {
        return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const bool pushed = transport.PushPcm(Span<const int16_t>(tone, 10 * audio::kFrameSamples)) == 10;
    static int16_t heard[3 * audio::kFrameSamples];
    uint32_t ssrcs[3] = {};
    uint32_t ticks[2] = {};
    bool ok = pushed;
    size_t frames = 0;
    double loudest = 0;
    uint32_t lastTick = 0;
    WaitUntil(
      [&] {
          heard[2 * audio::kFrameSamples] = 12345; // the third slot: past what `ticks` allows
          const size_t n = transport.PullSpeakerPcm(Span<int16_t>(heard, sizeof(heard) / sizeof(heard[0])),
                                                    Span<uint32_t>(ssrcs, 3), Span<uint32_t>(ticks, 2));
          ok = ok && n <= 2 && heard[2 * audio::kFrameSamples] == 12345;
          for (size_t f = 0; f < n && f < 2; ++f) {
              ok = ok && ssrcs[f] == 77 && ticks[f] > lastTick;
              lastTick = ticks[f];
              const double level = FrameRms(heard + f * audio::kFrameSamples);
              loudest = level > loudest ? level : loudest;
          }
          frames += n;
          return frames >= 10 && transport.Stats().silenceFramesSent >= 10;
      },
      5000);
    const bool mixedEmpty = transport.PcmAvailable() == 0;
    ok = ok && frames >= 10 && loudest > 4500 && loudest < 7000 && mixedEmpty &&
         transport.Stats().allocationsInTicks == 0;
    return transport.SetSpeakerOutput(false) == TransportResult::kOk && ok;
}

LoopbackOutcome Loopback() noexcept
{
    LoopbackOutcome outcome;
    Reflector reflector;
    if (!reflector.Open()) {
        return outcome;
    }
    VoiceTransportConfig config;
    std::memcpy(config.serverHost, "127.0.0.1", 10);
    std::memcpy(config.bindHost, "127.0.0.1", 10);
    config.serverPort = reflector.Port();
    config.ssrc = 77;
    config.raisePriority = false; // sanitizers slow the thread; no need to hold a real-time class
    TransportResult result = TransportResult::kOk;
    std::unique_ptr<VoiceTransport> transport = VoiceTransport::Create(config, &result);
    if (!transport) {
        outcome.codecAvailable = result != TransportResult::kCodecUnavailable;
        return outcome;
    }
    outcome.created = true;
    uint8_t key[32];
    std::memset(key, 5, sizeof(key));
    if (transport->SetTransportKey(rtp::TransportMode::kAeadXChaCha20Poly1305RtpSize, ByteView(key, sizeof(key))) !=
          TransportResult::kOk ||
        transport->Start() != TransportResult::kOk) {
        return outcome;
    }
    char address[64] = {};
    uint16_t port = 0;
    outcome.discovered =
      WaitUntil([&] { return transport->State() == TransportState::kRunning; }, 3000) &&
      transport->DiscoveredAddress(address, sizeof(address), &port) && std::strcmp(address, "127.0.0.1") == 0 &&
      port == transport->LocalPort();

    // Ten frames of a 440 Hz tone at amplitude 8000 (RMS about 5657).
    static int16_t tone[10 * audio::kFrameSamples];
    for (size_t i = 0; i < 10 * audio::kFrameSamplesPerChannel; ++i) {
        const double t = static_cast<double>(i) / audio::kSampleRate;
        const auto sample = static_cast<int16_t>(std::lround(8000.0 * std::sin(2.0 * 3.141592653589793 * 440.0 * t)));
        tone[2 * i] = sample;
        tone[2 * i + 1] = sample;
    }
    const bool pushed = transport->PushPcm(Span<const int16_t>(tone, sizeof(tone) / sizeof(tone[0]))) == 10;
    static int16_t heard[4 * audio::kFrameSamples];
    double loudest = 0;
    size_t frames = 0;
    WaitUntil(
      [&] {
          const size_t n = transport->PullPcm(Span<int16_t>(heard, sizeof(heard) / sizeof(heard[0])));
          for (size_t f = 0; f < n; ++f) {
              double sum = 0;
              for (size_t i = 0; i < audio::kFrameSamples; ++i) {
                  const double s = heard[f * audio::kFrameSamples + i];
                  sum += s * s;
              }
              const double rms = std::sqrt(sum / audio::kFrameSamples);
              loudest = rms > loudest ? rms : loudest;
          }
          frames += n;
          return frames >= 10 && transport->Stats().silenceFramesSent == 5;
      },
      5000);
    const TransportStats afterTone = transport->Stats();
    outcome.toneBack = pushed && frames >= 10 && loudest > 4500 && loudest < 7000;
    outcome.silenceTail = afterTone.voiceFramesSent == 10 && afterTone.silenceFramesSent == 5 &&
                          afterTone.allocationsInTicks == 0;

    reflector.SendJunkOnce();
    outcome.junkCounted = WaitUntil(
      [&] {
          const TransportStats stats = transport->Stats();
          return stats.droppedNotRtp >= afterTone.droppedNotRtp + 1 &&
                 stats.droppedOpenFailed >= afterTone.droppedOpenFailed + 1;
      },
      3000);

    outcome.speakerOutput = SpeakerOutput(*transport, tone);

    transport->Stop();
    const bool stopped = transport->State() == TransportState::kStopped;
    outcome.restarted = stopped && transport->Start() == TransportResult::kOk &&
                        WaitUntil([&] { return transport->State() == TransportState::kRunning; }, 3000);
    transport->PushPcm(Span<const int16_t>(tone, 4 * audio::kFrameSamples));
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    transport.reset(); // destroyed mid-stream: the destructor joins the thread
    outcome.destroyedRunning = true;
    return outcome;
}

} // namespace

TransportThreadSelfTestReport RunTransportThreadSelfTest() noexcept
{
    TransportThreadSelfTestReport report;
    auto add = [&](std::string_view name, bool ok) {
        if (report.count < kMaxTransportThreadChecks) {
            report.checks[report.count++] = {name, ok};
        }
    };
    add("spsc-ring-bounds", RingBounds());
    add("spsc-ring-across-threads", RingAcrossThreads());
    const LoopbackOutcome loop = Loopback();
    // Without libopus the transport cannot be created; that build's TS tests use the JS engine's.
    const bool skip = !loop.codecAvailable;
    add("loopback-discovery", skip || (loop.created && loop.discovered));
    add("loopback-tone-and-silence-tail", skip || (loop.toneBack && loop.silenceTail));
    add("loopback-junk-counted", skip || loop.junkCounted);
    add("loopback-speaker-output", skip || loop.speakerOutput);
    add("loopback-stop-start-destroy", skip || (loop.restarted && loop.destroyedRunning));
    return report;
}

} // namespace sdkpp::transport
