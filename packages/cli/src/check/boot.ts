import { createRequire } from 'node:module';
import { environmentUrls, type IntegrationEnvironment } from '@platform/api-client';
import { validateRenderOutput } from '@platform/api-client/contentkit-schema';
import { HOST_EVENT } from '@platform/events/catalogue';
import { type Manifest, sampleString } from '@platform/manifest';
import { decodeLogsHeader, envelopeRequest, testEnvironment } from '@platform/runtime/testing';
import type { BundleProblem } from '../build/verify.js';
import { hookExcuse, offlineOutbound, sampleExcuse } from './render-sample.js';
import {
  blockTarget,
  CHECK_ICON_URL,
  CHECK_IDS,
  checkTarget,
  type SampleInstallation,
  sampleInstallation,
  shownScreens,
} from './sample-installation.js';
import { taskStandIn } from './task-stand-in.js';

let loading: Promise<typeof import('miniflare')> | undefined;

/**
 * Starts importing Miniflare (about half a second) so it overlaps manifest validation and bundling.
 *
 * @example
 * ```ts
 * preloadMiniflare(); // at the start of `platform check`
 * ```
 */
export function preloadMiniflare(): Promise<typeof import('miniflare')> {
  // `require`, not `import()`: Miniflare ships one large CommonJS file, and an ESM import of it
  // first scans the whole file for its export names (~0.2 s of the check).
  loading ??= Promise.resolve().then(
    () => createRequire(import.meta.url)('miniflare') as typeof import('miniflare'),
  );
  return loading;
}

/** The compatibility date the host's workerd executor runs integrations with. */
export const COMPATIBILITY_DATE = '2025-09-01';

async function describeFailure(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  let detail = text.slice(0, 300);
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string } };
    if (body.error?.message) detail = `${body.error.code ?? 'error'}: ${body.error.message}`;
  } catch {
    // not JSON: keep the text
  }
  const logged = decodeLogsHeader(response.headers.get('x-platform-logs'))
    .filter((l) => l.level === 'error')
    .map((l) => l.message);
  return `HTTP ${response.status} ${detail}${logged.length ? ` (logged: ${logged.join(' | ')})` : ''}`;
}

/** A URL matching a `urlUnfurl` pattern (`*` one segment, `**` any rest). */
export function sampleUrl(pattern: string): string {
  const url = pattern.replace(/\*\*/g, 'example/path').replace(/\*/g, 'example');
  return url.endsWith('/') ? `${url}example` : url;
}

/**
 * What is wrong with a block's first render, if anything: a failure (an `ExposableError` answer is
 * fine: the block shows its message), or output that is not valid ContentKit (docs/contentkit.md).
 */
async function renderProblem(response: Response): Promise<string | undefined> {
  if (!response.ok) {
    const exposed = response.status < 500 && response.headers.get('content-type')?.includes('json');
    if (exposed) {
      const body = (await response
        .clone()
        .json()
        .catch(() => ({}))) as { error?: { code?: string } };
      if (body.error?.code === 'exposable_error') return undefined;
    }
    return `failed to render in workerd: ${await describeFailure(response)}`;
  }
  const body: unknown = await response.json().catch(() => undefined);
  const result = validateRenderOutput(body);
  if (result.ok) return undefined;
  const listed = result.problems.slice(0, 3).map((p) => `${p.path}: ${p.message}`);
  return `rendered invalid ContentKit: ${listed.join('; ')}`;
}

/** JavaScript media types a published script may be served as. */
const JAVASCRIPT = /^(application|text)\/(javascript|ecmascript|x-javascript)\s*(;|$)/i;

/** What is wrong with an answer of the published-script hook: a script (200, JavaScript) or nothing (204) is fine. */
async function publishedScriptProblem(response: Response): Promise<string | undefined> {
  if (response.status === 204) return undefined;
  if (response.status !== 200) {
    return `\`${HOST_EVENT.fetchPublishedScript}\` failed in workerd: ${await describeFailure(response)}`;
  }
  await response.arrayBuffer();
  const type = response.headers.get('content-type') ?? '';
  return JAVASCRIPT.test(type)
    ? undefined
    : `\`${HOST_EVENT.fetchPublishedScript}\` answered ${type ? `\`${type}\`` : 'no Content-Type'}; answer the script with \`content-type: application/javascript\` (or nothing when there is no script).`;
}

/** Options of {@link bootBundle}. */
export interface BootOptions {
  /** Hooks the module defines (the published-script hook): each is called once with a sample event. */
  hooks?: readonly string[];
}

/**
 * Boots a bundle in workerd (Miniflare, as the host does) and calls it with an installation set-up
 * envelope, then renders every block and every configuration screen the host shows
 * (`shownScreens`), and calls its published-script hook once for a site. Each runs as an active
 * installation configured with the sample of its settings (`sampleInstallation`;
 * docs/published-scripts.md "`platform check`"), offline (docs/first-integration.md "What
 * `platform check` renders"). Returns the problems found.
 *
 * @example
 * ```ts
 * const problems = await bootBundle(bundle.code, manifest); // [] when it answers 2xx
 * ```
 */
export async function bootBundle(
  code: string,
  manifest: Manifest,
  options: BootOptions = {},
): Promise<BundleProblem[]> {
  const { Miniflare, Response: OfflineResponse } = await preloadMiniflare();
  const outbound = offlineOutbound();
  let mf: InstanceType<typeof Miniflare>;
  try {
    mf = new Miniflare({
      modules: true,
      script: code,
      compatibilityDate: COMPATIBILITY_DATE,
      host: '127.0.0.1',
      port: 0,
      outboundService: (request: { url: string; method: string }) => {
        const { body, ...init } = taskStandIn(request) ?? outbound.answer(request.url);
        return new OfflineResponse(body, init);
      },
      handleRuntimeStdio: (stdout: NodeJS.ReadableStream, stderr: NodeJS.ReadableStream) => {
        stdout.resume();
        stderr.resume();
      },
    });
  } catch (error) {
    // Miniflare refuses some modules before workerd starts (a dynamic `import()`/`require` of a
    // computed name): that is the bundle's problem, reported, never a crash of check.
    const reason = error instanceof Error ? error.message : String(error);
    return [{ path: 'script', message: `workerd refused the bundle: ${reason}` }];
  }
  const base = testEnvironment({
    // A freshly installed integration has its secrets (set at publish): check gives each declared
    // one a sample by the rule of settings (`sampleString`: a URL when its name says so).
    secrets: Object.fromEntries(
      Object.keys(manifest.secrets ?? {}).map((name) => [name, sampleString(name)]),
    ),
    integration: {
      externalLinks: manifest.externalLinks ?? [],
      name: manifest.name,
      version: 'check',
      title: manifest.title,
      urls: {
        ...environmentUrls({
          publicEndpoint: 'http://127.0.0.1/v1/integrations/check/installations/inst_check/public',
        }),
        // Where the host would serve the manifest's `icon` once uploaded (a sample address here).
        ...(manifest.icon ? { icon: CHECK_ICON_URL } : {}),
      },
    },
  });
  const post = async (event: object, environment: IntegrationEnvironment) => {
    const request = envelopeRequest(event, { environment });
    const body = new Uint8Array(await request.arrayBuffer());
    const answer = await mf.dispatchFetch('http://integration.local/v1', {
      method: 'POST',
      body,
      headers: { 'content-type': request.headers.get('content-type') ?? '' },
    });
    return answer as unknown as Response;
  };
  const installed = sampleInstallation(manifest, checkTarget(manifest), base);
  const problems: BundleProblem[] = [];
  try {
    try {
      await mf.ready;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return [{ path: 'script', message: `workerd refused the bundle: ${reason}` }];
    }
    const setup = await post(
      {
        type: HOST_EVENT.installationSetup,
        eventId: 'evt_check',
        installationId: CHECK_IDS.installation,
        status: 'active',
        target: installed.target,
        configuration: installed.configuration,
      },
      installed.environment,
    );
    if (!setup.ok) {
      problems.push({
        path: 'script',
        message: `the integration failed an ${HOST_EVENT.installationSetup} envelope in workerd: ${await describeFailure(setup)}`,
      });
    } else await setup.arrayBuffer();
    // A sample render: an error, or a warning when the failure may come from the sample itself.
    const render = async (
      path: BundleProblem['path'],
      what: string,
      event: Record<string, unknown>,
      sample: SampleInstallation,
    ): Promise<void> => {
      outbound.take();
      const answer = (await post(
        { type: HOST_EVENT.uiRender, ...event },
        sample.environment,
      )) as unknown as Response;
      const problem = await renderProblem(answer);
      if (!problem) return;
      const excuse = answer.ok ? undefined : sampleExcuse(outbound.take(), sample.unsetKeys);
      problems.push(
        excuse
          ? { path, severity: 'warning', message: `${what} ${problem}; ${excuse}.` }
          : { path, message: `${what} ${problem}` },
      );
    };
    const blockSample = sampleInstallation(manifest, blockTarget(manifest), base);
    for (const [i, block] of (manifest.blocks ?? []).entries()) {
      await render(
        `blocks[${i}].id`,
        `block \`${block.id}\``,
        {
          eventId: `evt_render_${i}`,
          componentId: block.id,
          props: {},
          context: { type: 'document', editable: true },
          // A `urlUnfurl` block is created by pasting a URL: render it as the editor creates it.
          ...(block.urlUnfurl?.[0]
            ? { action: { action: '@link.unfurl', url: sampleUrl(block.urlUnfurl[0]) } }
            : {}),
        },
        blockSample,
      );
    }
    for (const { place, target, componentId } of shownScreens(manifest)) {
      await render(
        `configurations.${place}.componentId`,
        `the configuration screen \`${componentId}\``,
        {
          eventId: `evt_render_${place}`,
          componentId,
          props: {},
          context: { type: 'configuration', editable: true },
        },
        sampleInstallation(manifest, target, base),
      );
    }
    if (options.hooks?.includes(HOST_EVENT.fetchPublishedScript)) {
      const site = sampleInstallation(manifest, 'site', base);
      outbound.take();
      const answer = await post(
        {
          type: HOST_EVENT.fetchPublishedScript,
          eventId: 'evt_script',
          installationId: CHECK_IDS.installation,
          siteId: CHECK_IDS.site,
        },
        site.environment,
      );
      const problem = await publishedScriptProblem(answer);
      // The module booted, set up and rendered by now: a failure of the hook for the settings check
      // gave it is configuration-dependent, a warning (docs/published-scripts.md "`platform check`").
      const excuse = problem && !answer.ok ? hookExcuse(outbound.take(), site) : undefined;
      if (problem) {
        problems.push(
          excuse
            ? {
                path: 'script',
                severity: 'warning',
                message: `${problem}; a configuration-dependent failure, not a boot failure: ${excuse}. The host calls the hook with each site's own settings and serves no script when it fails; answer 204 (no script) for settings it cannot use.`,
              }
            : { path: 'script', message: problem },
        );
      }
    }
  } finally {
    // a bundle workerd refused makes dispose reject with the same error, already reported
    await mf.dispose().catch(() => undefined);
  }
  return problems;
}
