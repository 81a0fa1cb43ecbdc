#!/usr/bin/env node
// The `platform` command. A committed shim (not dist/bin.js itself) so that `npm install` on a
// fresh clone links the bin before `prepare` builds dist/.
try {
  await import('../dist/bin.js');
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/bin.js')) {
    process.stderr.write(
      'error: the platform CLI is not built yet; run `npm run build` at the repository root.\n',
    );
    process.exitCode = 2;
  } else {
    throw error;
  }
}
