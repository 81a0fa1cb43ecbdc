import { setFlagsFromString } from 'node:v8';

/**
 * The floor of each V8 young generation (one semi-space) in the host's threads, in MiB: V8's own
 * ceiling for it on 64-bit machines, so the young generation is that size from the start.
 *
 * Left to itself, V8 starts every young generation at 1 MiB, doubles it only after enough objects
 * survived collections, and shrinks it again when allocation slows (between bursts). A host that
 * delivers a quarter of the events (one of four hosts) therefore collects several times as often per
 * event: 4.6 × one host's collections at four budgeted hosts, each waking V8's helper threads; with the
 * floor, 1.5 × (docs/benchmarks.md, "A young generation of fixed size"). The memory it costs was not
 * measurable (a host's resident memory after bursts: 203–215 MiB either way).
 */
export const YOUNG_GENERATION_MB = 16;

/**
 * The `node` option that sets the floor for every isolate of the process, the main thread's included.
 * `npm start` and the `platform-host` bin pass it; V8 reads it only when an isolate is created, so the
 * main thread gets it only from the command line.
 *
 * @example
 * spawn(process.execPath, [YOUNG_GENERATION_OPTION, 'packages/host/dist/main.js']);
 */
export const YOUNG_GENERATION_OPTION = `--min-semi-space-size=${YOUNG_GENERATION_MB}`;

/**
 * Whether a `node` command line already sizes the young generation (`--min-semi-space-size=N`, or V8's
 * spelling with underscores). An operator's own value stands, `0` (V8's default sizing) included.
 *
 * @example
 * sizesYoungGeneration(['--min-semi-space-size=8']); // true
 * sizesYoungGeneration(['--max-old-space-size=4096']); // false
 */
export function sizesYoungGeneration(execArgv: readonly string[]): boolean {
  return execArgv.some((arg) => /^--min[-_]semi[-_]space[-_]size(=|$)/.test(arg));
}

/**
 * Gives the isolates this process creates from now on (the delivery thread) the young generation's
 * floor, unless the command line sized it already (then every isolate has the operator's value). V8's
 * option is process-wide: later workers of an embedding process get the floor too. Returns whether it
 * set the option.
 *
 * @example
 * floorYoungGeneration(); // before `new Worker(...)`: the worker's young generation starts at 16 MiB
 */
export function floorYoungGeneration(
  execArgv: readonly string[] = process.execArgv,
  setFlags: (flags: string) => void = setFlagsFromString,
): boolean {
  if (sizesYoungGeneration(execArgv)) return false;
  setFlags(YOUNG_GENERATION_OPTION);
  return true;
}
