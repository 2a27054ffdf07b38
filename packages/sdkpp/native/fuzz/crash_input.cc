#include "fuzz/crash_input.h"

#include <csignal>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

#include <sanitizer/common_interface_defs.h>

namespace sdkpp::fuzz {
namespace {

const CurrentInput* g_current = nullptr;

void Write(int fd, const char* text)
{
    ssize_t ignored = ::write(fd, text, std::strlen(text));
    (void)ignored;
}

void Report()
{
    const CurrentInput* current = g_current;
    if (current == nullptr || current->data == nullptr) {
        return;
    }
    Write(STDERR_FILENO, "\n== the input under test: ");
    Write(STDERR_FILENO, current->label != nullptr ? current->label : "(unnamed)");
    Write(STDERR_FILENO, "\n");
    if (current->dumpPath != nullptr) {
        const int fd = ::open(current->dumpPath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            ssize_t ignored = ::write(fd, current->data, current->size);
            (void)ignored;
            ::close(fd);
            Write(STDERR_FILENO, "== saved to ");
            Write(STDERR_FILENO, current->dumpPath);
            Write(STDERR_FILENO, "\n");
        }
    }
}

void OnAbort(int signal)
{
    Report();
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

} // namespace

void InstallCrashReporter(const CurrentInput* current)
{
    g_current = current;
    __sanitizer_set_death_callback(Report);
    std::signal(SIGABRT, OnAbort);
}

} // namespace sdkpp::fuzz
