#!/usr/bin/env node
// miniaudio, the audio I/O library the native engine's system devices use: one C header that loads its
// backends at run time (PulseAudio/PipeWire, ALSA and JACK on Linux, WASAPI on Windows, Core Audio on
// macOS), so the addon links no sound library and still loads on a machine without any.
//
// miniaudio is not published on npm by its author. The `react-native-audio-api` package (MIT) carries
// miniaudio 0.11.21 unmodified (byte for byte the upstream 0.11.21 tag) at the path below. Installing that
// package would pull react-native in as a peer, so it is not a dependency: its tarball is fetched from the
// registry, checked against the pinned sha512, and only miniaudio.h is kept (see npm-source.mjs).
//
//   node scripts/miniaudio-config.mjs fetch     fetch into build-deps/miniaudio unless already there
//   node scripts/miniaudio-config.mjs exists    fetch if needed; print true or false (binding.gyp)
//   node scripts/miniaudio-config.mjs include   print the include directory
//   SDKPP_SYSTEM_AUDIO=0                        build without system devices (exists prints false)
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

import { fetchPinnedTarball } from './npm-source.mjs';

export const MINIAUDIO_SOURCE = Object.freeze({
  npmPackage: 'react-native-audio-api@0.13.6',
  miniaudioVersion: '0.11.21',
  member: 'package/common/cpp/audioapi/libs/miniaudio/miniaudio.h',
  integrity:
    'sha512-055JlxTaajdzcJCzyd+xnH1pJawNkt2NZ3RNoI2vv1QxYRh257W/dcDky/qf4/VMEFdpZFuFfVW1hv75OEh3gA==',
});

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Outside build/, which `node-gyp rebuild` wipes. */
export const miniaudioIncludeDir = path.join(packageRoot, 'build-deps', 'miniaudio');
const header = path.join(miniaudioIncludeDir, 'miniaudio.h');
const stampFile = path.join(miniaudioIncludeDir, 'stamp.json');

/** Fetches miniaudio.h unless the pinned one is there; returns a reason when it cannot, else undefined. */
export function fetchMiniaudio() {
  const stamp = JSON.stringify(MINIAUDIO_SOURCE);
  if (existsSync(header) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
    return undefined;
  }
  const workDir = path.join(packageRoot, 'build-deps', 'miniaudio-work');
  rmSync(workDir, { recursive: true, force: true });
  rmSync(miniaudioIncludeDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  try {
    fetchPinnedTarball(MINIAUDIO_SOURCE, workDir, [MINIAUDIO_SOURCE.member]);
    mkdirSync(miniaudioIncludeDir, { recursive: true });
    renameSync(path.join(workDir, MINIAUDIO_SOURCE.member), header);
    writeFileSync(stampFile, stamp);
    return undefined;
  } catch (error) {
    rmSync(miniaudioIncludeDir, { recursive: true, force: true });
    return error instanceof Error ? error.message : String(error);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** Whether the build should compile the system devices in (fetching miniaudio when needed). */
export function systemAudioAvailable() {
  if (process.env.SDKPP_SYSTEM_AUDIO === '0') return false;
  return fetchMiniaudio() === undefined;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const command = process.argv[2];
  if (command === 'exists') {
    process.stdout.write(systemAudioAvailable() ? 'true' : 'false');
  } else if (command === 'include') {
    process.stdout.write(miniaudioIncludeDir);
  } else if (command === 'fetch') {
    const failure = fetchMiniaudio();
    process.stdout.write(
      failure === undefined
        ? `sdkpp: miniaudio ${MINIAUDIO_SOURCE.miniaudioVersion} is in ${path.relative(packageRoot, miniaudioIncludeDir)}\n`
        : `sdkpp: miniaudio was not fetched (${failure}); the addon builds without system audio devices\n`,
    );
  } else {
    process.stderr.write('usage: miniaudio-config.mjs fetch | exists | include\n');
    process.exitCode = 2;
  }
}
