#!/usr/bin/env node
// `npm run fuzz -- <target> <seconds>`: fuzzes one target of native/fuzz/fuzz_targets.h.
// `npm run fuzz -- --all <seconds>`: each target in turn for <seconds> (CI: .ci/run, a few seconds each).
// `npm run fuzz -- --list`: the targets.
//
// With a clang that links libFuzzer (Debian: clang-14 + libclang-rt-14-dev, which .ci/run installs) this is
// coverage-guided libFuzzer under ASan + UBSan; otherwise a mutation driver built with g++ under the same
// sanitizers (native/fuzz/random_driver.cc; weaker, no coverage feedback). Both start from the seeds
// (test/vectors, see native-fuzz-seeds.mjs) and the regression inputs. libFuzzer keeps what it learns in
// build-sanitize/fuzz/corpus/<target>/ between runs. SDKPP_FUZZ_DRIVER=random forces the mutation driver.
//
// A crash leaves its input in native/fuzz/regressions/<target>/crash-<sha1>: commit it with the fix, and
// `npm run test:asan` replays it from then on. Exit status non-zero when a target crashed.
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';

import { writeSeedCorpus } from './native-fuzz-seeds.mjs';
import {
  buildExecutable,
  findFuzzerCompiler,
  findOpenSsl,
  findOpus,
  findSanitizerCompiler,
  outputRoot,
  FUZZ_DRIVERS,
  repoRoot,
  SANITIZER_ENV,
  SANITIZER_FLAGS,
  sourcesUnder,
  warningFlags,
} from './native-sanitize.mjs';

/** The target names, read from fuzz_targets.h so that the list has one home. */
function listTargets() {
  const header = readFileSync(path.join(repoRoot, 'native', 'fuzz', 'fuzz_targets.h'), 'utf8');
  const table = header.slice(header.indexOf('kFuzzTargets[]'));
  return [...table.matchAll(/\{"([a-z0-9_]+)", \w+\}/g)].map((match) => match[1]);
}

async function buildFuzzer() {
  const libFuzzer = process.env.SDKPP_FUZZ_DRIVER === 'random' ? undefined : findFuzzerCompiler();
  const compiler = libFuzzer ?? findSanitizerCompiler();
  if (!compiler) throw new Error('no C++ compiler with -fsanitize=address,undefined (install g++ or clang)');
  const openssl = findOpenSsl(compiler);
  const opus = findOpus();
  const driver = libFuzzer ? 'native/fuzz/libfuzzer_entry.cc' : 'native/fuzz/random_driver.cc';
  const sanitizers = libFuzzer
    ? ['-fsanitize=fuzzer,address,undefined', ...SANITIZER_FLAGS.slice(1)]
    : SANITIZER_FLAGS;
  const sources = [
    ...sourcesUnder('core'),
    ...sourcesUnder('fuzz').filter((file) => !FUZZ_DRIVERS.includes(file)),
    driver,
  ];
  const started = performance.now();
  const { executable, compiled, total } = await buildExecutable({
    name: libFuzzer ? 'fuzz-libfuzzer' : 'fuzz-random',
    compiler,
    sources,
    cflags: [
      '-std=c++17',
      '-O1',
      '-g',
      ...sanitizers,
      ...warningFlags(compiler),
      '-Inative',
      ...openssl.cflags,
      ...opus.defines,
      ...opus.cflags,
    ],
    ldflags: sanitizers,
    libs: [...openssl.libs, ...opus.libs],
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `fuzz: ${libFuzzer ? `libFuzzer (${compiler})` : `random mutation driver (${compiler}; no libFuzzer here)`}, ` +
      `${compiled} of ${total} sources compiled in ${seconds} s`,
  );
  return { executable, libFuzzer: Boolean(libFuzzer) };
}

function sha1(file) {
  return createHash('sha1').update(readFileSync(file)).digest('hex');
}

/** Moves a crash input into the regressions folder under a stable name; returns its path. */
function keepCrash(target, file) {
  const dir = path.join(repoRoot, 'native', 'fuzz', 'regressions', target);
  mkdirSync(dir, { recursive: true });
  const kept = path.join(dir, `crash-${sha1(file)}`);
  renameSync(file, kept);
  return path.relative(repoRoot, kept);
}

function fuzzOne({ executable, libFuzzer }, target, seconds, seedRoot) {
  const seeds = path.join(seedRoot, target);
  const regressions = path.join(repoRoot, 'native', 'fuzz', 'regressions', target);
  const inputs = [seeds, regressions].filter((dir) => existsSync(dir));
  const artifacts = path.join(outputRoot, 'fuzz', 'artifacts', target);
  rmSync(artifacts, { recursive: true, force: true });
  mkdirSync(artifacts, { recursive: true });
  const env = { ...process.env, ...SANITIZER_ENV, SDKPP_FUZZ_TARGET: target };
  const started = performance.now();
  let run;
  if (libFuzzer) {
    const corpus = path.join(outputRoot, 'fuzz', 'corpus', target);
    mkdirSync(corpus, { recursive: true });
    run = spawnSync(
      executable,
      [
        `-max_total_time=${seconds}`,
        '-max_len=1500', // an Ethernet MTU: no datagram on the wire is longer
        '-timeout=10',
        '-rss_limit_mb=2048',
        '-print_final_stats=1',
        `-artifact_prefix=${artifacts}/`,
        corpus,
        ...inputs,
      ],
      { cwd: repoRoot, env, encoding: 'utf8', stdio: ['ignore', 'inherit', 'pipe'] },
    );
  } else {
    const seed = String(Date.now());
    run = spawnSync(executable, [target, String(seconds), path.join(artifacts, 'crash'), seed, ...inputs], {
      cwd: repoRoot,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'inherit', 'pipe'],
    });
  }
  const elapsed = (performance.now() - started) / 1000;
  const stderr = run.stderr ?? '';
  const crashes = readdirSync(artifacts).map((file) => keepCrash(target, path.join(artifacts, file)));
  const executions = /stat::number_of_executed_units:\s*(\d+)/.exec(stderr)?.[1];
  const coverage = /#\d+\s+DONE\s+cov: (\d+)/.exec(stderr)?.[1];
  if (run.status !== 0 || crashes.length > 0) {
    process.stderr.write(stderr.split('\n').slice(-60).join('\n'));
    console.error(
      `fuzz: ${target} CRASHED after ${elapsed.toFixed(1)} s; input kept as ${crashes.join(', ') || '(none)'}`,
    );
    return false;
  }
  const stats = executions ? `, ${executions} inputs${coverage ? `, ${coverage} coverage points` : ''}` : '';
  console.log(`fuzz: ${target} ok (${elapsed.toFixed(1)} s${stats})`);
  return true;
}

async function main() {
  const args = process.argv.slice(2);
  const targets = listTargets();
  if (args[0] === '--list') {
    console.log(targets.join('\n'));
    return;
  }
  const chosen = args[0] === '--all' ? targets : [args[0]];
  const seconds = Number(args[1] ?? (args[0] === '--all' ? 10 : 60));
  if (!args[0] || chosen.some((target) => !targets.includes(target)) || !(seconds > 0)) {
    console.error(`usage: npm run fuzz -- <${targets.join('|')}|--all|--list> [seconds]`);
    process.exit(2);
  }
  const started = performance.now();
  const fuzzer = await buildFuzzer();
  const seedRoot = path.join(outputRoot, 'fuzz', 'seeds');
  writeSeedCorpus(seedRoot);
  let ok = true;
  for (const target of chosen) ok = fuzzOne(fuzzer, target, seconds, seedRoot) && ok;
  console.log(`fuzz: ${chosen.length} target(s) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (!ok) process.exit(1);
}

main().catch((error) => {
  console.error(`fuzz: ${error.message}`);
  process.exit(1);
});
