// The delay-load hook of the Windows addon built with MinGW-w64 (scripts/cross). binding.gyp does not
// compile this file: node-gyp's MSVC build links its own hook.
//
// The cross build links the addon against a delay-import library of node.exe (made with
// x86_64-w64-mingw32-dlltool -y), so each N-API function is resolved on its first call, by mingw-w64's
// __delayLoadHelper2 (libmingwex), which asks this hook before every LoadLibrary it would make. Left to
// itself it would load "node.exe" by name: in electron.exe or a game's executable that fails, or loads
// some other node.exe from the search path into the process. The hook answers with the module already
// running instead. It must be linked as an object file, not from an archive: only a definition the
// linker meets before libmingwex replaces that library's null hook.
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

#include <delayimp.h>

namespace {

// ASCII only, so no locale can make two DLL names (un)equal.
bool SameDllName(const char* a, const char* b) noexcept
{
    const auto lower = [](char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    for (; *a != '\0' && *b != '\0'; ++a, ++b) {
        if (lower(*a) != lower(*b)) {
            return false;
        }
    }
    return *a == *b;
}

// Where the N-API functions live in this process: the executable (node.exe, electron.exe, a game that
// embeds Node statically), or libnode.dll when Node is embedded as a shared library.
HMODULE RunningNode() noexcept
{
    const HMODULE shared = ::GetModuleHandleW(L"libnode.dll");
    return shared != nullptr ? shared : ::GetModuleHandleW(nullptr);
}

FARPROC WINAPI OnDelayLoad(unsigned notification, PDelayLoadInfo info)
{
    if (notification != dliNotePreLoadLibrary || info == nullptr || info->szDll == nullptr ||
        !SameDllName(info->szDll, "node.exe")) {
        return nullptr; // anything else: the helper's own way
    }
    return reinterpret_cast<FARPROC>(RunningNode());
}

} // namespace

// Declared by delayimp.h (mutable in mingw-w64's, const in MSVC's, hence decltype).
decltype(__pfnDliNotifyHook2) __pfnDliNotifyHook2 = OnDelayLoad;
