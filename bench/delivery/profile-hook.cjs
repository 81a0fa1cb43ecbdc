// Loaded into the host by `bench/delivery/rates.mjs --profile=DIR` (NODE_OPTIONS=--require, so in every
// thread, the delivery thread included): each SIGUSR2 to the process starts, then stops and writes, a V8
// CPU profile of every thread, as DIR/t<threadId>-<n>.cpuprofile (n counts the stops). A benchmark tool;
// never loaded by the host on its own.
const inspector = require('node:inspector');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { isMainThread, threadId } = require('node:worker_threads');

const dir = process.env.BENCH_PROFILE_DIR;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  let running = false;
  let stops = 0;
  const toggle = () => {
    if (!running) {
      session.post('Profiler.enable', () =>
        session.post('Profiler.setSamplingInterval', { interval: 200 }, () => session.post('Profiler.start')),
      );
    } else {
      const n = ++stops;
      session.post('Profiler.stop', (error, result) => {
        if (!error) writeFileSync(join(dir, `t${threadId}-${n}.cpuprofile`), JSON.stringify(result.profile));
      });
    }
    running = !running;
  };
  // Every thread hears the main thread's signal through a broadcast channel.
  const channel = new BroadcastChannel('bench-profile-toggle');
  channel.onmessage = toggle;
  channel.unref();
  if (isMainThread)
    process.on('SIGUSR2', () => {
      channel.postMessage('toggle');
      toggle();
    });
}
