{
  # Build with `npm run build:native` (scripts/build-native.mjs): it points node-gyp at the running Node's
  # own headers, so nothing is downloaded. The crypto is a static libcrypto linked in with its symbols
  # hidden (scripts/crypto-config.mjs), so the addon needs no OpenSSL from its host (Electron, Bun); without
  # one, Node's headers are used and the EVP symbols resolve from the node binary at load time.
  'variables': {
    # -Werror keeps this repository clean. The build script turns it off when sdkpp is built inside a
    # consumer's node_modules, where a newer compiler's new warning must not cost them the native engine.
    'sdkpp_werror%': 'true',
    # Absolute, because compiler flags (unlike include_dirs) are relative to the build directory.
    'sdkpp_napi_dir': '<!(node -p "require(\'path\').resolve(require(\'node-addon-api\').include_dir)")',
    # libopus when pkg-config finds it (Debian: libopus-dev), else none: the addon then builds without a
    # codec and the JS engine's wasm Opus is used. `--sdkpp_opus=false` or SDKPP_OPUS=0 forces that path.
    'sdkpp_opus%': '<!(node scripts/opus-config.mjs exists)',
    # A static libcrypto when one is found (Debian: libssl-dev), else the host's OpenSSL symbols.
    'sdkpp_static_crypto%': '<!(node scripts/crypto-config.mjs exists)',
    # The system's microphones and speakers through miniaudio, whose header scripts/miniaudio-config.mjs
    # fetches from the npm registry; without it (or with SDKPP_SYSTEM_AUDIO=0) the addon has no devices.
    'sdkpp_system_audio%': '<!(node scripts/miniaudio-config.mjs exists)',
  },
  'targets': [
    {
      'target_name': 'sdkpp_native',
      # Every .cc under native/core and native/napi, so that a new file needs no edit here (another OS's
      # files are left out by the first condition below).
      'sources': [
        '<!@(node -p "require(\'fs\').readdirSync(\'native\',{recursive:true}).map(f=>f.split(require(\'path\').sep).join(\'/\')).filter(f=>f.endsWith(\'.cc\')&&/^(core|napi)[/]/.test(f)).sort().map(f=>\'native/\'+f).join(\' \')")',
      ],
      'include_dirs': ['native'],
      'dependencies': ['<!(node -p "require(\'node-addon-api\').targets"):node_addon_api_except'],
      'defines': ['NAPI_VERSION=8'],
      'conditions': [
        # Where the OS matters (the transport's UDP socket and thread priority), one file per OS, named
        # *_posix.cc or *_win.cc: each build takes its own OS's file and leaves out the other.
        ['OS=="win"', {'sources/': [['exclude', '_posix\\.cc$']]}, {'sources/': [['exclude', '_win\\.cc$']]}],
        ['sdkpp_static_crypto=="true"', {
          'defines': ['SDKPP_STATIC_CRYPTO=1'],
          # Node's include directory also holds Node's OpenSSL headers, of another patch level than the
          # static library, and node-gyp lists it first. The addon needs only Node-API from it, so it is
          # dropped in favour of the Node-API headers package and the static library's own headers.
          'include_dirs!': [
            '<(node_root_dir)/include/node',
            '<(node_root_dir)/deps/openssl/config',
            '<(node_root_dir)/deps/openssl/openssl/include',
          ],
          'include_dirs': [
            '<!(node -p "require(\'node-api-headers\').include_dir")',
            '<!@(node scripts/crypto-config.mjs includes)',
          ],
          'libraries': ['<!@(node scripts/crypto-config.mjs libs)'],
        }],
        ['sdkpp_system_audio=="true"', {
          'defines': ['SDKPP_HAVE_MINIAUDIO=1'],
          # -isystem: miniaudio's own code is not held to this repository's warning flags.
          'cflags_cc': ['-isystem', '<!(node scripts/miniaudio-config.mjs include)'],
          'xcode_settings': {
            'OTHER_CPLUSPLUSFLAGS': ['-isystem', '<!(node scripts/miniaudio-config.mjs include)'],
            # Core Audio is linked, as miniaudio needs on macOS.
            'OTHER_LDFLAGS': ['-framework CoreFoundation', '-framework CoreAudio', '-framework AudioToolbox'],
          },
          'msvs_settings': {
            'VCCLCompilerTool': {
              'AdditionalOptions': ['/external:I<!(node scripts/miniaudio-config.mjs include)'],
            },
          },
          # dlopen for the backends, and threads and libm for miniaudio itself.
          'conditions': [['OS=="linux"', {'libraries': ['-ldl', '-lpthread', '-lm']}]],
        }],
        ['sdkpp_opus=="true"', {
          'defines': ['SDKPP_HAVE_OPUS=1'],
          'cflags_cc': ['<!@(node scripts/opus-config.mjs cflags)'],
          'xcode_settings': {'OTHER_CPLUSPLUSFLAGS': ['<!@(node scripts/opus-config.mjs cflags)']},
          # Linked dynamically: Debian's libopus.a is not position-independent, so the runtime needs
          # libopus0 (a missing one makes the addon fail to load and the JS engine take over).
          'libraries': ['<!@(node scripts/opus-config.mjs libs)'],
        }],
        ['OS!="win" and OS!="mac"', {
          # node-addon-api's inline code trips -Wshadow; -isystem keeps the flag on for our code only.
          'cflags_cc': [
            '-std=c++17',
            '-isystem', '<(sdkpp_napi_dir)',
            '-Wall', '-Wextra', '-Wshadow', '-Wconversion', '-Wsign-conversion', '-Wunused-parameter',
            '-fvisibility=hidden', '-fvisibility-inlines-hidden',
          ],
          'cflags': ['-fvisibility=hidden'],
          # Resolve every libcrypto symbol when the addon is loaded, not on first call: in a host that
          # does not export OpenSSL (Electron has BoringSSL) require() then fails cleanly and the JS engine
          # takes over, instead of the process dying on the first packet.
          # --wrap routes the addon's own allocations through core/audio/alloc_counter.cc, which counts
          # them per thread: the audio self-test proves that a 20 ms tick allocates nothing.
          'ldflags': [
            '-Wl,-z,now',
            '-Wl,--wrap=_Znwm,--wrap=_Znam,--wrap=_ZnwmRKSt9nothrow_t,--wrap=_ZnamRKSt9nothrow_t',
            '-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc',
          ],
          'defines': ['SDKPP_COUNT_ALLOCATIONS=1'],
          'conditions': [
            ['sdkpp_werror=="true"', {'cflags_cc': ['-Werror']}],
          ],
        }],
        ['OS=="mac"', {
          'xcode_settings': {
            'CLANG_CXX_LANGUAGE_STANDARD': 'c++17',
            'CLANG_CXX_LIBRARY': 'libc++',
            'GCC_ENABLE_CPP_EXCEPTIONS': 'YES',
            'GCC_SYMBOLS_PRIVATE_EXTERN': 'YES',
            'GCC_INLINES_ARE_PRIVATE_EXTERN': 'YES',
            'MACOSX_DEPLOYMENT_TARGET': '10.15',
            'OTHER_CPLUSPLUSFLAGS': [
              '-isystem', '<(sdkpp_napi_dir)',
              '-Wall', '-Wextra', '-Wshadow', '-Wconversion', '-Wsign-conversion',
            ],
            # The same reason as -z now on Linux.
            'OTHER_LDFLAGS': ['-Wl,-bind_at_load'],
            'GCC_TREAT_WARNINGS_AS_ERRORS': 'NO',
          },
          'conditions': [
            ['sdkpp_werror=="true"', {'xcode_settings': {'GCC_TREAT_WARNINGS_AS_ERRORS': 'YES'}}],
          ],
        }],
        ['OS=="win"', {
          'defines': ['_HAS_EXCEPTIONS=1', 'NOMINMAX'],
          'msvs_settings': {
            'VCCLCompilerTool': {
              'ExceptionHandling': 1,
              'WarningLevel': 4,
              'AdditionalOptions': [
                '/std:c++17', '/utf-8',
                '/external:anglebrackets', '/external:W0', '/external:I<(sdkpp_napi_dir)',
              ],
            },
          },
          'conditions': [
            ['sdkpp_werror=="true"', {'msvs_settings': {'VCCLCompilerTool': {'WarnAsError': 'true'}}}],
          ],
        }],
      ],
    },
  ],
}
