// The C++ test driver of `npm run test:asan` (scripts/native-asan.mjs): every self-test of native/core,
// then every fuzz seed and regression input replayed through its target, all in one executable built with
// AddressSanitizer and UndefinedBehaviorSanitizer (-fno-sanitize-recover=all: the first finding aborts).
// The same self-tests run in the addon from vitest; here they run with every read and write checked.
//
//   native_tests [seed root] [corpus root]...   one folder per fuzz target in each (<root>/<target>/<input>)
// Exits 0 when every self-test passes; a sanitizer finding or a broken fuzz property aborts.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <openssl/crypto.h>
#include <openssl/opensslv.h>

#include "core/audio/audio_selftest.h"
#include "core/dave/dave_selftest.h"
#include "core/devices/devices_selftest.h"
#include "core/rtp/transport_selftest.h"
#include "core/selftest.h"
#include "core/transport/transport_thread_selftest.h"
#include "fuzz/crash_input.h"
#include "fuzz/fuzz_targets.h"

namespace {

using namespace sdkpp;

// Reports of the shape {checks[], count, Ok()} where each check has a name and ok: print each.
template <typename Report>
bool PrintChecks(const Report& report)
{
    for (size_t i = 0; i < report.count; ++i) {
        const auto& check = report.checks[i];
        std::printf("  %-48.*s %s\n", static_cast<int>(check.name.size()), check.name.data(),
                    check.ok ? "ok" : "FAILED");
    }
    return report.count > 0 && report.Ok();
}

bool CryptoSelfTest()
{
    const CryptoSelfTestReport report = RunCryptoSelfTest();
    for (size_t i = 0; i < report.count; ++i) {
        const AeadSelfTestResult& result = report.results[i];
        const crypto::AeadParameters* parameters = crypto::GetAeadParameters(result.algorithm);
        std::printf("  %-48s known-answer %s, round-trip %s, tamper %s\n",
                    parameters != nullptr ? std::string(parameters->name).c_str() : "?",
                    result.knownAnswer ? "ok" : "FAILED", result.roundTrip ? "ok" : "FAILED",
                    result.rejectsTampering ? "ok" : "FAILED");
    }
    return report.Ok();
}

struct SelfTest {
    const char* name;
    bool (*run)();
};

// Every self-test of native/core. A new one is one line: {"name", [] { return PrintChecks(RunX()); }}.
const SelfTest kSelfTests[] = {
    {"crypto (AEAD backends)", CryptoSelfTest},
    {"rtp (transport, RTP, IP discovery)", [] { return PrintChecks(rtp::RunTransportSelfTest()); }},
    {"audio (codec, jitter buffer, mixer)", [] { return PrintChecks(audio::RunAudioSelfTest()); }},
    {"dave (key ratchet, frame cryptors)", [] { return PrintChecks(dave::RunDaveSelfTest()); }},
    {"transport thread (SPSC ring, loopback UDP)",
     [] { return PrintChecks(transport::RunTransportThreadSelfTest()); }},
    {"devices (sample ring, capture reader, processing link)", [] { return PrintChecks(devices::RunDevicesSelfTest()); }},
};

std::vector<uint8_t> ReadFile(const std::filesystem::path& path)
{
    std::ifstream file(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

// Feeds every file under <root>/<target>/ to its target, each in a heap block of exactly its size. A
// folder that names no target is an error (a renamed target would otherwise stop replaying its inputs),
// and so is a target without any input when `everyTarget` (the seed corpus) is set.
bool ReplayCorpus(const std::filesystem::path& root,
                  bool everyTarget,
                  fuzz::CurrentInput* current,
                  size_t* replayed)
{
    bool ok = true;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(root, error)) {
        if (entry.is_directory() && fuzz::FindFuzzTarget(entry.path().filename().string()) == nullptr) {
            std::printf("FAILED: %s names no fuzz target\n", entry.path().string().c_str());
            ok = false;
        }
    }
    for (const fuzz::FuzzTarget& target : fuzz::kFuzzTargets) {
        const std::filesystem::path dir = root / std::string(target.name);
        std::vector<std::filesystem::path> files;
        for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
            if (entry.is_regular_file()) {
                files.push_back(entry.path());
            }
        }
        if (everyTarget && files.empty()) {
            std::printf("FAILED: no seed input for fuzz target %.*s in %s\n",
                        static_cast<int>(target.name.size()), target.name.data(), root.string().c_str());
            ok = false;
        }
        for (const auto& path : files) {
            const std::vector<uint8_t> bytes = ReadFile(path);
            const std::unique_ptr<uint8_t[]> exact(new uint8_t[bytes.empty() ? 1 : bytes.size()]);
            std::copy(bytes.begin(), bytes.end(), exact.get());
            const std::string label = path.string();
            current->label = label.c_str();
            current->data = exact.get();
            current->size = bytes.size();
            target.run(exact.get(), bytes.size());
            current->data = nullptr;
            ++*replayed;
        }
    }
    return ok;
}

} // namespace

int main(int argc, char** argv)
{
    std::printf("OpenSSL: headers %s, library %s\n", OPENSSL_VERSION_TEXT, OpenSSL_version(OPENSSL_VERSION));
    if (OPENSSL_VERSION_MAJOR != OPENSSL_version_major()) {
        std::printf("FAILED: OpenSSL headers and library are different major versions\n");
        return 1;
    }

    fuzz::CurrentInput current;
    fuzz::InstallCrashReporter(&current);

    size_t failed = 0;
    for (const SelfTest& test : kSelfTests) {
        std::printf("%s\n", test.name);
        current.label = test.name;
        const bool ok = test.run();
        if (!ok) {
            ++failed;
        }
        std::printf("%s: %s\n", test.name, ok ? "ok" : "FAILED");
    }

    // The first root is the seed corpus: every target must have seeds there.
    size_t replayed = 0;
    for (int i = 1; i < argc; ++i) {
        const size_t before = replayed;
        if (!ReplayCorpus(argv[i], i == 1, &current, &replayed)) {
            ++failed;
        }
        std::printf("replayed %zu inputs from %s\n", replayed - before, argv[i]);
    }

    std::printf("%zu self-tests, %zu fuzz inputs replayed with no sanitizer finding; %zu failed\n",
                sizeof(kSelfTests) / sizeof(kSelfTests[0]), replayed, failed);
    return failed == 0 ? 0 : 1;
}
