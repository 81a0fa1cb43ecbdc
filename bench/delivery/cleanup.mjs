// Clean-up that must happen however the benchmark ends: normal end, an error, the watchdog, Ctrl-C.
// Host processes are killed by their own 'exit' hook (host-process.mjs); what needs async work (dropping
// the benchmark's PostgreSQL database, removing temp folders) registers here.

/** @type {Array<() => Promise<void> | void>} */
const tasks = [];
let running = null;

/** Registers `fn` to run at clean-up (last registered, first run); returns a function that unregisters it. */
export function onCleanup(fn) {
  tasks.push(fn);
  return () => {
    const i = tasks.indexOf(fn);
    if (i >= 0) tasks.splice(i, 1);
  };
}

/** Runs every registered task once (errors are printed, not thrown). Safe to call more than once. */
export function runCleanups() {
  running ??= (async () => {
    while (tasks.length > 0) {
      const fn = tasks.pop();
      try {
        await fn();
      } catch (error) {
        console.error('bench: clean-up step failed:', error);
      }
    }
  })();
  return running;
}

/**
 * Ends the process after `seconds` (results incomplete), after the clean-up (itself bounded at 20 s);
 * SIGINT and SIGTERM do the same at once.
 */
export function installWatchdog(name, seconds) {
  const giveUp = async (why, code) => {
    console.error(`${name}: ${why}; cleaning up and exiting.`);
    setTimeout(() => process.exit(code), 20_000).unref();
    await runCleanups();
    process.exit(code);
  };
  setTimeout(
    () => void giveUp(`still running after ${seconds} s; giving up (results incomplete)`, 2),
    seconds * 1000,
  ).unref();
  process.once('SIGINT', () => void giveUp('interrupted', 130));
  process.once('SIGTERM', () => void giveUp('terminated', 143));
}
