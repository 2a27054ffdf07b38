// The fuzz driver for toolchains without libFuzzer (g++): mutates the seed and regression inputs at random
// for a given time and feeds each result to one target, under the sanitizers the build adds. No coverage
// feedback, so it finds less than libFuzzer per second; scripts/native-fuzz.mjs uses it only when no clang
// with -fsanitize=fuzzer is installed.
//
//   random_driver <target> <seconds> <crash-file> <seed>... [corpus dirs]
// A crash leaves the input in <crash-file>. The same seed and corpora repeat the same inputs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "fuzz/crash_input.h"
#include "fuzz/fuzz_targets.h"

namespace {

using Bytes = std::vector<uint8_t>;
constexpr size_t kMaxInput = 1500; // an Ethernet MTU: no datagram on the wire is longer

void LoadCorpus(const std::filesystem::path& dir, std::vector<Bytes>* corpus)
{
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
        if (entry.is_regular_file()) {
            std::ifstream file(entry.path(), std::ios::binary);
            corpus->emplace_back(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
        }
    }
}

void Mutate(std::mt19937_64& random, const std::vector<Bytes>& corpus, Bytes* input)
{
    const auto pick = [&](size_t n) { return n == 0 ? size_t{0} : static_cast<size_t>(random() % n); };
    const size_t mutations = 1 + pick(8);
    for (size_t m = 0; m < mutations; ++m) {
        const size_t at = pick(input->size() + 1);
        switch (random() % 8) {
        case 0: // flip a bit
            if (!input->empty()) {
                (*input)[pick(input->size())] ^= static_cast<uint8_t>(1U << pick(8));
            }
            break;
        case 1: // an interesting byte
            if (!input->empty()) {
                static constexpr uint8_t kInteresting[] = {0x00, 0x01, 0x7f, 0x80, 0xff, 0xbe, 0xde, 0x10};
                (*input)[pick(input->size())] = kInteresting[pick(sizeof(kInteresting))];
            }
            break;
        case 2: // insert random bytes
            input->insert(input->begin() + static_cast<std::ptrdiff_t>(at), 1 + pick(4),
                          static_cast<uint8_t>(random()));
            break;
        case 3: // erase bytes
            if (at < input->size()) {
                const size_t count = 1 + pick(input->size() - at);
                input->erase(input->begin() + static_cast<std::ptrdiff_t>(at),
                             input->begin() + static_cast<std::ptrdiff_t>(at + count));
            }
            break;
        case 4: // truncate
            input->resize(at);
            break;
        case 5: // splice in part of another input
            if (!corpus.empty()) {
                const Bytes& other = corpus[pick(corpus.size())];
                const size_t from = pick(other.size() + 1);
                input->insert(input->begin() + static_cast<std::ptrdiff_t>(at),
                              other.begin() + static_cast<std::ptrdiff_t>(from), other.end());
            }
            break;
        case 6: // a random byte
            if (!input->empty()) {
                (*input)[pick(input->size())] = static_cast<uint8_t>(random());
            }
            break;
        default: // all random
            input->resize(pick(200));
            for (uint8_t& byte : *input) {
                byte = static_cast<uint8_t>(random());
            }
            break;
        }
    }
    if (input->size() > kMaxInput) {
        input->resize(kMaxInput);
    }
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 5) {
        std::fprintf(stderr, "usage: %s <target> <seconds> <crash-file> <seed> [corpus dir]...\n", argv[0]);
        return 2;
    }
    const sdkpp::fuzz::FuzzTarget* target = sdkpp::fuzz::FindFuzzTarget(argv[1]);
    if (target == nullptr) {
        std::fprintf(stderr, "unknown target %s\n", argv[1]);
        return 2;
    }
    const double seconds = std::atof(argv[2]);
    std::mt19937_64 random(std::strtoull(argv[4], nullptr, 10));
    std::vector<Bytes> corpus;
    for (int i = 5; i < argc; ++i) {
        LoadCorpus(argv[i], &corpus);
    }

    sdkpp::fuzz::CurrentInput current;
    current.label = argv[1];
    current.dumpPath = argv[3];
    sdkpp::fuzz::InstallCrashReporter(&current);

    // Each input goes to the target in a heap block of exactly its size.
    const auto feed = [&](const Bytes& input) {
        const std::unique_ptr<uint8_t[]> exact(new uint8_t[input.empty() ? 1 : input.size()]);
        std::copy(input.begin(), input.end(), exact.get());
        current.data = exact.get();
        current.size = input.size();
        target->run(exact.get(), input.size());
        current.data = nullptr;
    };
    for (const Bytes& seed : corpus) {
        feed(seed);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    unsigned long long runs = 0;
    Bytes input;
    while ((runs & 255) != 0 || std::chrono::steady_clock::now() < deadline) {
        input = corpus.empty() ? Bytes{} : corpus[static_cast<size_t>(random() % corpus.size())];
        Mutate(random, corpus, &input);
        feed(input);
        ++runs;
    }
    std::printf("%s: %llu inputs in %.0f s, no crash (%zu seeds)\n", argv[1], runs, seconds, corpus.size());
    return 0;
}
