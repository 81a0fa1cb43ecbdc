// What one `fdatasync` of a freshly written 4 KiB page costs this machine, as the host's SQLite log sync
// (`WalSync`, PLATFORM_SQLITE_SYNC=full) pays it once per group of accepted events, both ways it runs: on
// libuv's thread pool (the time the calling thread spends handing it over, the wait until it is done, and
// the whole process's CPU per sync: user + system, the pool thread and the kernel's work on its behalf
// included), and inline on the calling thread (`fdatasyncSync`: the thread's wait and the process's CPU).
//
//   node bench/storage/fdatasync-cost.mjs [--count=2000] [--dir=/tmp]
//
// docs/benchmarks.md ("What one sync costs") records the figures.
import { closeSync, fdatasync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
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

function inlineRound() {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    page.fill(i & 0xff);
    writeSync(fd, page);
    fdatasyncSync(fd);
  }
  const used = process.cpuUsage(cpu);
  return {
    waitUs: Number((process.hrtime.bigint() - start) / BigInt(count)) / 1000,
    cpuUs: (used.user + used.system) / count,
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
} finally {
  closeSync(fd);
  rmSync(dir, { recursive: true, force: true });
}
