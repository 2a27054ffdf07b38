import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The tags node-gyp-build reads from a prebuild's file name (`node.napi.glibc.node`). */
interface PrebuildTags {
  readonly file: string;
}

/** The tag matching and ordering helpers node-gyp-build exports; its `path()` prefers local builds. */
interface NodeGypBuildHelpers {
  parseTuple(name: string): unknown;
  matchTuple(platform: string, arch: string): (tuple: unknown) => boolean;
  compareTuples(a: unknown, b: unknown): number;
  parseTags(file: string): PrebuildTags | undefined;
  matchTags(runtime: string, abi: string): (tags: PrebuildTags | undefined) => boolean;
  compareTags(runtime: string): (a: PrebuildTags, b: PrebuildTags) => number;
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function loadHelpers(): NodeGypBuildHelpers | undefined {
  try {
    return createRequire(import.meta.url)('node-gyp-build') as NodeGypBuildHelpers;
  } catch {
    return undefined;
  }
}

/**
 * The prebuilt addon in `<packageRoot>/prebuilds/<platform>-<arch>/` that fits this process, chosen by
 * node-gyp-build's own tag rules (runtime, Node-API, libc), or `undefined` when there is none.
 *
 * node-gyp-build's `path()` is not used as is because it tries `build/Release` before `prebuilds/`, and
 * sdkpp prefers the prebuild: the one CI built and tested, which needs no compiler on the user's machine.
 */
export function findPrebuild(packageRoot: string): string | undefined {
  const helpers = loadHelpers();
  if (helpers === undefined) return undefined;
  const prebuildsDir = path.join(packageRoot, 'prebuilds');
  const tuple = listDir(prebuildsDir)
    .map((name) => ({ name, parsed: helpers.parseTuple(name) }))
    .filter(({ parsed }) => helpers.matchTuple(process.platform, process.arch)(parsed))
    .sort((a, b) => helpers.compareTuples(a.parsed, b.parsed))[0];
  if (tuple === undefined) return undefined;

  const runtime = process.versions['electron'] === undefined ? 'node' : 'electron';
  const dir = path.join(prebuildsDir, tuple.name);
  const winner = listDir(dir)
    .map((file) => helpers.parseTags(file))
    .filter(helpers.matchTags(runtime, process.versions.modules))
    .filter((tags): tags is PrebuildTags => tags !== undefined)
    .sort(helpers.compareTags(runtime))[0];
  return winner === undefined ? undefined : path.join(dir, winner.file);
}
