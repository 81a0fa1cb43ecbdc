import type { LaunchOptions } from 'playwright-core';

/**
 * Chromium as the repository's browser tests drive it: Debian's binary (`/usr/bin/chromium`) through
 * playwright-core, headless, nothing in the background (no sync, updates, QUIC or first-run pages).
 * The dashboard's tests and the security suite both launch it with these options.
 *
 * @example
 * const browser = await chromium.launch(CHROMIUM);
 * const context = await chromium.launchPersistentContext(profile, { ...CHROMIUM, viewport });
 */
export const CHROMIUM = {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-quic',
    '--no-first-run',
    '--disable-component-update',
    '--disable-sync',
  ],
} satisfies LaunchOptions;
