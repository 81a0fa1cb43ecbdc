// What `platform check` renders a block or a configuration screen with, and how it judges a render
// that fails (docs/first-integration.md "What `platform check` renders").

/** The answer check gives every outbound request of the integration: it renders offline. */
export const OFFLINE_STATUS = 503;

/**
 * Records the integration's outbound requests during a check, answering each with a 503: `platform
 * check` never reaches the network (third-party APIs get no requests made of sample data, and the
 * result does not depend on the machine's network).
 *
 * @example
 * ```ts
 * const outbound = offlineOutbound();
 * const offline = (request: Request) => {
 *   const { body, ...init } = outbound.answer(request.url);
 *   return new Response(body, init);
 * };
 * outbound.take(); // ['https://api.example.com/x', ...] since the last take
 * ```
 */
export function offlineOutbound() {
  let urls: string[] = [];
  return {
    /** Records one request; the 503 to answer it with (for the caller's `Response`, e.g. Miniflare's). */
    answer(url: string): { body: string; status: number; headers: Record<string, string> } {
      urls.push(url);
      return {
        body: `platform check does not reach the network: ${url} was not requested (the check renders offline).`,
        status: OFFLINE_STATUS,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      };
    },
    /** The URLs requested since the last call. */
    take(): string[] {
      const taken = urls;
      urls = [];
      return taken;
    },
  };
}

/**
 * Why a failed sample render says nothing certain about the integration, if it does not: the render
 * requested the network (check answers 503) or its installation is `pending` (a required setting
 * has no default). Such a failure is a warning of `platform check`; any other is an error.
 *
 * @example
 * ```ts
 * sampleExcuse(['https://api.example.com/x'], []); // 'it requested https://api.example.com/x, ...'
 * ```
 */
export function sampleExcuse(requested: readonly string[], unsetKeys: readonly string[]): string | undefined {
  if (requested.length > 0) {
    const more = requested.length > 1 ? ` (and ${requested.length - 1} more)` : '';
    return `it requested ${requested[0]}${more}, which \`platform check\` answers ${OFFLINE_STATUS} (it renders offline), so this failure may be the missing answer; make sure the component shows something when that request fails`;
  }
  if (unsetKeys.length > 0) {
    const keys = unsetKeys.map((k) => `\`${k}\``).join(', ');
    return `its installation is \`pending\` (required ${keys} has no default, so check cannot set it), so this failure may be the missing setting; the host renders components of pending installations too: show a prompt to finish the configuration (throw an \`ExposableError\`)`;
  }
  return undefined;
}

/**
 * Why a failed published-script hook depends on the configuration check ran it with, if it may:
 * the render excuses ({@link sampleExcuse}), or settings check had to make up (required keys
 * without a `default`), or settings saved by a configuration screen, which check cannot fill (a
 * freshly installed site has none of them yet). Such a failure is a warning of `platform check`,
 * reported as configuration-dependent, not as a failure to boot; any other is an error.
 *
 * @example
 * ```ts
 * hookExcuse([], { unsetKeys: [], madeUpKeys: ['script'], configuration: { script: 'sample' } });
 * // 'it ran with values check made up for required settings without a default ({"script":"sample"})'
 * ```
 */
export function hookExcuse(
  requested: readonly string[],
  sample: {
    unsetKeys: readonly string[];
    madeUpKeys: readonly string[];
    screen?: string;
    configuration: Record<string, unknown>;
  },
): string | undefined {
  const excuse = sampleExcuse(requested, sample.unsetKeys);
  if (excuse) return excuse;
  if (sample.madeUpKeys.length > 0) {
    const values = Object.fromEntries(sample.madeUpKeys.map((k) => [k, sample.configuration[k]]));
    return `it ran with values check made up for required settings without a default (${JSON.stringify(values)})`;
  }
  if (sample.screen) {
    return `its settings are saved by the configuration screen \`${sample.screen}\`, which check cannot fill, so it ran with the configuration of a freshly installed site (${JSON.stringify(sample.configuration)})`;
  }
  return undefined;
}
