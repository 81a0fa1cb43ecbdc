// What one `fdatasync` of a freshly written 4 KiB page costs this machine, as the host's SQLite log sync
// (`WalSync`, PLATFORM_SQLITE_SYNC=full) pays it once per group of accepted events, both ways it runs: on
// libuv's thread pool (the time the calling thread spends handing it over, the wait until it is done, and
// the whole process's CPU per sync: user + system, the pool thread and the kernel's work on its behalf
// included), and inline on the calling thread (`fdatasyncSync`: the thread's wait and the process's CPU).
// Those two append to the file. Then the way the host's log is written: SQLite rewinds its log after each
// checkpoint and writes over it, frame after frame (4 KiB and a 24-byte header), so the file keeps its size;
// inline syncs of such a file, alone and each after an `fstat` of it (what the host's `WalSync` did before
// every sync until 2026-11-30), with the process's voluntary context switches per sync (each a sleep on
// the disk: the data, then the inode if the sync writes it, then the disk's cache flush). On Linux 6.13+ a
// stat of a file makes its next write's times fine-grained, so the inode changes and the sync writes it.
//
//   node bench/storage/fdatasync-cost.mjs [--count=2000] [--dir=/tmp]
//
// docs/benchmarks.md ("What one sync costs", "A stat before each log sync") records the figures.
import {
  closeSync,
  fdatasync,
  fdatasyncSync,
  fstatSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';

const option = (name, fallback) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const count = Number(option('count', '2000'));
if (!Number.isInteger(count) || count < 10)
  throw new Error(`--count must be a whole number >= 10; got ${count}`);
const dir = mkdtempSync(join(option('dir', tmpdir()), 'fdatasync-cost-'));
const fd = openSync(join(dir, 'log'), 'w');
const page = Buffer.alloc(4096);

async function round() {
  let submitNs = 0n;
  let totalNs = 0n;
  const cpu = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    page.fill(i & 0xff);
    writeSync(fd, page);
    const start = process.hrtime.bigint();
    let submitted = 0n;
    await new Promise((resolve, reject) => {
      fdatasync(fd, (error) => (error ? reject(error) : resolve()));
      submitted = process.hrtime.bigint();
    });
    submitNs += submitted - start;
    totalNs += process.hrtime.bigint() - start;
  }
  const used = process.cpuUsage(cpu);
  return {
    submitUs: Number(submitNs / BigInt(count)) / 1000,
    waitUs: Number(totalNs / BigInt(count)) / 1000,
    cpuUs: (used.user + used.system) / count,
  };
}

/** A log of `FRAMES` frames, written once and synced: the file the overwriting rounds write over. */
const FRAMES = 1000;
const FRAME = 4096 + 24;
const logFd = openSync(join(dir, 'log-overwritten'), 'w');
const frame = Buffer.alloc(FRAME);
for (let i = 0; i < FRAMES; i++) writeSync(logFd, frame, 0, FRAME, i * FRAME);
fdatasyncSync(logFd);

/**
 * `count` writes each synced inline (`fdatasyncSync`). Default: 4 KiB pages appended to the first file;
 * `overwrite`: frames written over the log above in order (rewound at its end), as SQLite writes its log;
 * `stat`: an fstat before each sync; `gapMs`: the thread busy that long between syncs (as at 1 000
 * events/s, a sync every 2–3 ms), so that the kernel's coarse clock moves between them (its CPU then counts
 * too: read the sleeps only).
 */
function inlineRound({ overwrite = false, stat = false, gapMs = 0 } = {}) {
  const file = overwrite ? logFd : fd;
  const cpu = process.cpuUsage();
  const switches = process.resourceUsage().voluntaryContextSwitches;
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    if (overwrite) {
      frame.fill(i & 0xff);
      writeSync(logFd, frame, 0, FRAME, (i % FRAMES) * FRAME);
    } else {
      page.fill(i & 0xff);
      writeSync(fd, page);
    }
    if (stat) fstatSync(file);
    fdatasyncSync(file);
    for (const until = performance.now() + gapMs; performance.now() < until; );
  }
  const used = process.cpuUsage(cpu);
  return {
    waitUs: Number((process.hrtime.bigint() - start) / BigInt(count)) / 1000,
    cpuUs: (used.user + used.system) / count,
    switches: (process.resourceUsage().voluntaryContextSwitches - switches) / count,
  };
}

try {
  await round(); // warm-up: the file's first blocks, the pool's threads
  const r = await round();
  console.log(
    `${count} syncs of a 4 KiB write (${cpus().length} cores, ${cpus()[0]?.model ?? '?'}, Node ${process.version}):`,
  );
  console.log(`  calling thread, handing the sync to the pool: ${r.submitUs.toFixed(1)} µs per sync`);
  console.log(`  from the call to its callback: ${r.waitUs.toFixed(1)} µs per sync`);
  console.log(`  process CPU (user + system): ${r.cpuUs.toFixed(1)} µs per sync`);
  inlineRound(); // warm-up
  const inline = inlineRound();
  console.log('the same syncs inline (fdatasyncSync on the calling thread):');
  console.log(`  the thread's wait, the write included: ${inline.waitUs.toFixed(1)} µs per sync`);
  console.log(`  process CPU (user + system): ${inline.cpuUs.toFixed(1)} µs per sync`);
  inlineRound({ overwrite: true }); // warm-up
  const rows = [];
  for (let i = 0; i < 2; i++)
    rows.push(
      ['written over', inlineRound({ overwrite: true })],
      ['after an fstat', inlineRound({ overwrite: true, stat: true })],
    );
  console.log(
    `inline syncs of a ${FRAMES}-frame log written over, as SQLite's (two rounds each, alternating):`,
  );
  for (const [name, r] of rows)
    console.log(
      `  ${name.padEnd(14)} wait ${r.waitUs.toFixed(1)} µs, process CPU ${r.cpuUs.toFixed(1)} µs, ${r.switches.toFixed(2)} sleeps per sync`,
    );
  const gapped = [
    inlineRound({ overwrite: true, gapMs: 2.5 }),
    inlineRound({ overwrite: true, stat: true, gapMs: 2.5 }),
  ];
  console.log(
    `  one sync every 2.5 ms: ${gapped[0].switches.toFixed(2)} sleeps per sync written over, ${gapped[1].switches.toFixed(2)} after an fstat`,
  );
} finally {
  closeSync(fd);
  closeSync(logFd);
  rmSync(dir, { recursive: true, force: true });
}
