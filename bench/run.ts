// `npm run bench`: runs every benchmark file in bench/ (each in its own process, so one's warm-up and garbage do
// not weigh on another) and prints their results as a table, or with `--json` one JSON object per line:
// {"name","unit","value","peer","peerValue","ratio","load"}, ratio = peer cost / ours measured in the same run,
// load = the 1-minute load average at the start and end of the line's measurement and the share of the cores
// other processes used meanwhile (see BenchResult.load). The runner also prints the load average before and
// after the whole run on stderr.
// `npm run bench -- transport dave` runs only the files named.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { isBenchResult, type BenchResult } from './lib/report.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const json = args.includes('--json');
const only = args.filter((a) => !a.startsWith('--'));

const files = readdirSync(HERE)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
  .filter((f) => only.length === 0 || only.includes(f.replace(/\.ts$/, '')))
  .sort();

// The Opus peer of the path and codec benches, built once from its npm tarball (see scripts/bench-peers.mjs).
if (files.some((f) => f === 'paths.ts' || f === 'audio.ts' || f === 'mainThread.ts')) {
  const peers = spawnSync(process.execPath, [path.join(HERE, '..', 'scripts', 'bench-peers.mjs')], {
    encoding: 'utf8',
  });
  if (peers.status !== 0) process.stderr.write(`${peers.stderr}the benches use their fallback Opus peers\n`);
}

const results: BenchResult[] = [];
let failed = false;
const loadNow = (): string =>
  loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');
process.stderr.write(
  `load average (1, 5, 15 min) at the start: ${loadNow()} on ${availableParallelism()} cores\n`,
);
for (const file of files) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(HERE, file), '--json'], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  for (const line of run.stdout.split('\n')) {
    if (!line.startsWith('{')) {
      if (line.trim() !== '') process.stderr.write(`${file}: ${line}\n`);
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      parsed = undefined;
    }
    if (!isBenchResult(parsed)) {
      process.stderr.write(`${file}: not a result line: ${line}\n`);
      failed = true;
      continue;
    }
    results.push(parsed);
    if (json) console.log(JSON.stringify(parsed));
  }
  if (run.status !== 0) {
    failed = true;
    process.stderr.write(`${file} failed (exit ${String(run.status ?? run.signal)}):\n${run.stderr}\n`);
  }
}

process.stderr.write(`load average (1, 5, 15 min) at the end: ${loadNow()}\n`);

if (!json) {
  const rows = results.map((r) => [
    r.name,
    `${r.value} ${r.unit}`,
    `${r.peerValue} ${r.unit}`,
    r.peer,
    `×${r.ratio}`,
    r.load
      ? `${r.load.start}→${r.load.end}${r.load.othersBusy === undefined ? '' : `, others ${Math.round(r.load.othersBusy * 100)} %`}`
      : '',
  ]);
  const head = ['benchmark', 'sdkpp', 'peer', 'peer is', 'ratio', 'load (others busy)'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ');
  console.log(line(head));
  for (const row of rows) console.log(line(row.map(String)));
}
process.exitCode = failed ? 1 : 0;
