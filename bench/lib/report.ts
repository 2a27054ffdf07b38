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
}

/** Nanoseconds per call of `step(i)` over `rounds` calls, after a warm-up of a tenth as many. */
export function nsPerCall(rounds: number, step: (i: number) => void): number {
  for (let i = 0; i < rounds / 10; i++) step(i);
  const start = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) step(i);
  return Number(process.hrtime.bigint() - start) / rounds;
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
 * ours / the peer's, so above 1 still means we do better; 0 when there is no peer to compare with.
 */
export function qualityResult(
  name: string,
  unit: string,
  value: number,
  peer: string,
  peerValue: number,
): BenchResult {
  return {
    name,
    unit,
    value: Number(value.toFixed(1)),
    peer,
    peerValue: Number(peerValue.toFixed(1)),
    ratio: peerValue > 0 ? Number((value / peerValue).toFixed(2)) : 0,
  };
}

/** Prints a result as one JSON line (the format the runner collects). */
export function report(line: BenchResult): void {
  console.log(JSON.stringify(line));
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
    typeof r.ratio === 'number'
  );
}
