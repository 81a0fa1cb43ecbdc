#!/usr/bin/env -S node --min-semi-space-size=16
// `platform-host` (`npx platform-host`): runs the host until SIGTERM/SIGINT. A committed shim (not
// dist/main.js itself) so that `npm install` on a fresh clone links the bin before `prepare` builds dist/.
// The option on the first line gives the main thread's young generation its floor, as `npm start` does
// (src/delivery/host/young-generation.ts); `env -S` splits it from `node`.
try {
  await import('../dist/main.js');
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/main.js')) {
    process.stderr.write(
      `${JSON.stringify({ level: 60, time: Date.now(), msg: 'platform-host is not built yet: run `npm run build` at the repository root' })}\n`,
    );
    process.exitCode = 2;
  } else {
    throw error;
  }
}
