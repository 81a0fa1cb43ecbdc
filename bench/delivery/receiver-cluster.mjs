// The first process of a receiver spread over several processes (receiver.mjs with RECEIVER_PROCESSES=K):
// it forks K workers that share one listening port (node:cluster hands the connections out in turn), and
// answers the benchmark's IPC as a one-process receiver would, joining what the workers saw: the parent
// cannot tell the difference, except that `dump` also says how busy the busiest worker was.
import cluster from 'node:cluster';

/**
 * The answer to a `count` query: distinct events verified (`ok`) and settled, requests, and how many of the
 * `watched` events are each.
 */
export function countAnswer(id, okEvents, settledEvents, watched, requests) {
  let watchedOk = 0;
  let watchedSettled = 0;
  for (const event of watched) {
    if (okEvents.has(event)) watchedOk++;
    if (settledEvents.has(event)) watchedSettled++;
  }
  return { id, ok: okEvents.size, settled: settledEvents.size, requests, watchedOk, watchedSettled };
}

/** Runs the primary: forks `count` workers, relays the parent's messages, joins the workers' answers. */
export function runReceiverPrimary(count) {
  const workers = Array.from({ length: count }, () => cluster.fork());
  const okEvents = new Set();
  const settledEvents = new Set();
  let watched = [];
  let nextId = 1;
  const pending = new Map();
  const ask = (worker, type) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      worker.send({ type, id });
    });
  const ports = [];
  for (const worker of workers) {
    worker.on('message', (message) => {
      if (message.type === 'ready') {
        ports.push(message.port);
        if (ports.length === workers.length) process.send({ type: 'ready', port: ports[0] });
      } else if (pending.has(message.id)) {
        pending.get(message.id)(message);
        pending.delete(message.id);
      }
    });
    worker.on('exit', (code) => {
      if (code !== 0) console.error(`receiver worker ${worker.process.pid} exited with ${code}`);
    });
  }
  const broadcast = (message) => {
    for (const worker of workers) worker.send(message);
  };
  process.on('message', async (message) => {
    switch (message.type) {
      case 'configure':
        broadcast(message);
        break;
      case 'reset':
        okEvents.clear();
        settledEvents.clear();
        watched = [];
        broadcast(message);
        break;
      case 'watch':
        watched = message.ids;
        break;
      case 'count': {
        let requests = 0;
        for (const answer of await Promise.all(workers.map((w) => ask(w, 'count')))) {
          for (const id of answer.okIds) okEvents.add(id);
          for (const id of answer.settledIds) settledEvents.add(id);
          requests += answer.requests;
        }
        process.send(countAnswer(message.id, okEvents, settledEvents, watched, requests));
        break;
      }
      case 'dump': {
        const answers = await Promise.all(workers.map((w) => ask(w, 'dump')));
        const cpu = { user: 0, system: 0 };
        for (const a of answers) {
          cpu.user += a.cpu.user;
          cpu.system += a.cpu.system;
        }
        process.send({
          id: message.id,
          records: answers.flatMap((a) => a.records),
          cpu,
          processes: workers.length,
          // The busiest worker's CPU (µs): with it, the report can tell one saturated worker from many idle ones.
          busiestCpu: Math.max(...answers.map((a) => a.cpu.user + a.cpu.system)),
        });
        break;
      }
      case 'stop':
        broadcast(message);
        setTimeout(() => process.exit(0), 500).unref();
        cluster.on('exit', () => {
          if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
        });
        break;
      default:
        break;
    }
  });
  process.on('disconnect', () => process.exit(0));
}
