import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

/**
 * One benchmark result as `npm run bench -- --json` prints it: our cost, a named peer's cost measured in the
 * same run, and `ratio` = peer / ours (above 1: we are faster).
 */
export interface BenchResult {
  name: string;
  unit: string;
  value: number;
  peer: string;
  peerValue: number;
  ratio: number;
  /**
   * How busy the machine was while the line was measured, so that a noisy run can be told from a
   * regression: the 1-minute load average when the line's measurement started (the process started, or the
   * previous line was reported) and when it was reported, and the share of all cores that processes other
   * than this bench process used in between (from /proc/stat less this process's CPU time; absent where there
   * is no /proc/stat).
   */
  load?: { start: number; end: number; othersBusy?: number };
}

/** Nanoseconds per call of `step(i)` over `rounds` calls, after a warm-up of a tenth as many. */
export function nsPerCall(rounds: number, step: (i: number) => void): number {
  for (let i = 0; i < rounds / 10; i++) step(i);
  const start = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) step(i);
  return Number(process.hrtime.bigint() - start) / rounds;
}

/**
 * ns per call of `ours` and of `peer`, measured in `slices` alternating slices of `rounds / slices` calls
 * each (after one warm-up of each), and the median slice of each side taken. Both sides then share the
 * machine's quiet and busy moments alike, so a burst of other work during one side's only window cannot
 * move the ratio (the two sides of a line otherwise run seconds apart, the faster one in a shorter window).
 */
export function nsPerCallInterleaved(
  rounds: number,
  ours: () => void,
  peer: () => void,
  slices = 7,
): { ours: number; peer: number } {
  const perSlice = Math.max(1, Math.round(rounds / slices));
  for (let i = 0; i < perSlice / 2; i++) {
    ours();
    peer();
  }
  const oursNs: number[] = [];
  const peerNs: number[] = [];
  for (let slice = 0; slice < slices; slice++) {
    let start = process.hrtime.bigint();
    for (let i = 0; i < perSlice; i++) ours();
    oursNs.push(Number(process.hrtime.bigint() - start) / perSlice);
    start = process.hrtime.bigint();
    for (let i = 0; i < perSlice; i++) peer();
    peerNs.push(Number(process.hrtime.bigint() - start) / perSlice);
  }
  return { ours: median(oursNs), peer: median(peerNs) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** The result line of a cost measured in `unit` (lower is better). */
export function result(
  name: string,
  unit: string,
  value: number,
  peer: string,
  peerValue: number,
): BenchResult {
  return {
    name,
    unit,
    value: Number(value.toFixed(unit === 'ns' ? 0 : 3)),
    peer,
    peerValue: Number(peerValue.toFixed(unit === 'ns' ? 0 : 3)),
    ratio: Number((peerValue / value).toFixed(2)),
  };
}

/**
 * The result line of a quality measured in `unit` (higher is better, e.g. dB of echo removed): `ratio` is
 * ours / the peer's, so above 1 still means we do better; 0 when there is no peer to compare with. `digits`:
 * the decimals kept (one for dB; a correlation needs more).
 */
export function qualityResult(
  name: string,
  unit: string,
  value: number,
  peer: string,
  peerValue: number,
  digits = 1,
): BenchResult {
  return {
    name,
    unit,
    value: Number(value.toFixed(digits)),
    peer,
    peerValue: Number(peerValue.toFixed(digits)),
    ratio: peerValue > 0 ? Number((value / peerValue).toFixed(2)) : 0,
  };
}

/** The machine's state at one moment, for {@link BenchResult.load}. */
interface MachineSnapshot {
  load1: number;
  /** All cores' busy and total time in clock ticks (USER_HZ), when /proc/stat is there. */
  ticks?: { busy: number; total: number };
  /** This process's CPU time, µs. */
  ownUs: number;
}

/** The kernel's clock tick for /proc/stat (USER_HZ): 100 on every Linux architecture Node runs on. */
const TICKS_PER_SECOND = 100;

function snapshot(): MachineSnapshot {
  const own = process.cpuUsage();
  const at: MachineSnapshot = { load1: loadavg()[0] ?? 0, ownUs: own.user + own.system };
  try {
    const cpu =
      readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
    // user nice system idle iowait irq softirq steal (guest time is counted in user already)
    const total = cpu.slice(0, 8).reduce((sum, v) => sum + v, 0);
    const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
    if (total > 0) at.ticks = { busy: total - idle, total };
  } catch {
    // not Linux: the load average alone
  }
  return at;
}

let lineStart = snapshot();

function machineLoad(): NonNullable<BenchResult['load']> {
  const end = snapshot();
  const start = lineStart;
  lineStart = end;
  const load: NonNullable<BenchResult['load']> = {
    start: Number(start.load1.toFixed(2)),
    end: Number(end.load1.toFixed(2)),
  };
  if (start.ticks && end.ticks && end.ticks.total > start.ticks.total) {
    const busySeconds = (end.ticks.busy - start.ticks.busy) / TICKS_PER_SECOND;
    const ownSeconds = (end.ownUs - start.ownUs) / 1e6;
    const totalSeconds = (end.ticks.total - start.ticks.total) / TICKS_PER_SECOND;
    load.othersBusy = Number(Math.max(0, (busySeconds - ownSeconds) / totalSeconds).toFixed(2));
  }
  return load;
}

/**
 * Prints a result as one JSON line (the format the runner collects), with how busy the machine was while it
 * was measured ({@link BenchResult.load}).
 */
export function report(line: BenchResult): void {
  console.log(JSON.stringify({ ...line, load: line.load ?? machineLoad() }));
}

/** True when `line` has the shape of a {@link BenchResult}. */
export function isBenchResult(line: unknown): line is BenchResult {
  if (typeof line !== 'object' || line === null) return false;
  const r = line as Record<string, unknown>;
  return (
    typeof r.name === 'string' &&
    typeof r.unit === 'string' &&
    typeof r.value === 'number' &&
    typeof r.peer === 'string' &&
    typeof r.peerValue === 'number' &&
    typeof r.ratio === 'number' &&
    (r.load === undefined || (typeof r.load === 'object' && r.load !== null))
  );
}
