import { Worker } from 'node:worker_threads';
import { HOST_EVENT } from '@platform/events/catalogue';
import { didYouMean, EVENT_SCOPES, INTERNAL_SCOPES, type Manifest } from '@platform/manifest';
import type { BundleResult } from '../bundle.js';

/** A problem found in a built integration; `path` is the manifest key it concerns. */
export interface BundleProblem {
  path: 'script' | 'scopes' | `blocks[${number}].id` | `configurations.${string}.componentId`;
  message: string;
  /** `warning` when the problem may not be the integration's (an error when left out). */
  severity?: 'warning';
  /** The script's name the problem is about (an `events` key): `platform check` points at it in the source. */
  name?: string;
}

/**
 * Problems with the bundle's exports: workerd refuses a main module whose named exports are not
 * handlers, and the host calls the default export.
 *
 * @example
 * ```ts
 * exportProblems({ exports: ['default', 'helper'], entry: 'src/index.ts' }); // [{ path: 'script', ... }]
 * ```
 */
export function exportProblems(bundle: Pick<BundleResult, 'exports' | 'entry'>): BundleProblem[] {
  const problems: BundleProblem[] = [];
  if (!bundle.exports.includes('default')) {
    problems.push({
      path: 'script',
      message: `${bundle.entry} has no default export; end it with \`export default createIntegration({ ... })\`.`,
    });
  }
  const named = bundle.exports.filter((name) => name !== 'default');
  if (named.length > 0) {
    problems.push({
      path: 'script',
      message: `${bundle.entry} exports ${named.map((n) => `\`${n}\``).join(', ')} besides the default export; workerd treats named exports of the main module as entrypoints and refuses them. Move them to another file and import them.`,
    });
  }
  return problems;
}

/**
 * Problems with the blocks and configuration screens of the manifest: each `blocks[].id` and
 * `configurations.<place>.componentId` must name a component.
 *
 * @example
 * ```ts
 * blockProblems(manifest, ['counter']); // [] when blocks are [{ id: 'counter', ... }]
 * ```
 */
export function blockProblems(
  manifest: Pick<Manifest, 'blocks' | 'configurations'>,
  componentIds: readonly string[],
): BundleProblem[] {
  const known = componentIds.length ? componentIds.map((c) => `\`${c}\``).join(', ') : 'none';
  const screens = Object.entries(manifest.configurations ?? {}).flatMap(([place, settings]) =>
    settings?.componentId && !componentIds.includes(settings.componentId)
      ? [
          {
            path: `configurations.${place}.componentId` as const,
            message: `the configuration screen \`${settings.componentId}\` has no component with that componentId in the script (components: ${known}).`,
          },
        ]
      : [],
  );
  return [
    ...screens,
    ...(manifest.blocks ?? []).flatMap((block, i) =>
      componentIds.includes(block.id)
        ? []
        : [
            {
              path: `blocks[${i}].id` as const,
              message: `block \`${block.id}\` has no component with componentId \`${block.id}\` in the script (components: ${known}).`,
            },
          ],
    ),
  ];
}

/** What loading the bundle in Node tells about the integration. */
export type ModuleInspection =
  | {
      ok: true;
      componentIds: string[];
      /** Keys of `events`. */
      handlers: string[];
      /** Hooks given to `createIntegration` itself (the published-script hook, `HOST_EVENT.fetchPublishedScript`). */
      hooks: string[];
    }
  | { ok: false; message: string };

/** Events whose handler is a key of the definition itself, since it answers something. */
const HOOKS: readonly string[] = [HOST_EVENT.fetchPublishedScript, HOST_EVENT.fetchVisitorAuthentication];

/**
 * Loads the bundle as an ES module, as workerd would (no Node globals, in a worker thread), and
 * checks that its default export is an integration made with `createIntegration()`; returns its
 * component ids, `events` keys and hooks.
 *
 * @example
 * ```ts
 * const inspection = await inspectBundle(bundle.code, 'src/index.ts');
 * if (inspection.ok) console.log(inspection.componentIds);
 * ```
 */
export async function inspectBundle(code: string, entry: string): Promise<ModuleInspection> {
  const seen = await loadWithoutNode(code);
  if (!seen.loaded) return { ok: false, message: `${entry} throws when loaded: ${seen.message}` };
  if (!seen.integration) {
    return {
      ok: false,
      message: `the default export of ${entry} is not an integration; export the result of \`createIntegration({ ... })\` from @platform/runtime.`,
    };
  }
  const { componentIds, handlers, functions } = seen.integration;
  return { ok: true, componentIds, handlers, hooks: HOOKS.filter((name) => functions.includes(name)) };
}

/** What {@link loadWithoutNode} saw of the module's default export. */
type Loaded =
  | { loaded: false; message: string }
  | {
      loaded: true;
      /** Absent when the default export is no integration (`fetch` and `definition`). */
      integration?: { componentIds: string[]; handlers: string[]; functions: string[] };
    };

/**
 * Runs in a worker thread: loads the module with Node's own globals hidden (workerd has no
 * `process`, `Buffer` or `global`; a dependency that looks for them to pick a Node-only path, such as
 * `require('crypto')`, must not take it here when it would not there), then describes its default
 * export in plain data.
 */
const LOADER = `
const { parentPort, workerData } = require('node:worker_threads');
const post = parentPort.postMessage.bind(parentPort);
for (const name of ['process', 'Buffer', 'global']) {
  Object.defineProperty(globalThis, name, { value: undefined, configurable: true, writable: true });
}
const isRecord = (v) => typeof v === 'object' && v !== null;
import('data:text/javascript;base64,' + workerData).then(
  (mod) => {
    const integration = isRecord(mod) ? mod.default : undefined;
    if (!isRecord(integration) || typeof integration.fetch !== 'function' || !isRecord(integration.definition)) {
      post({ loaded: true });
      return;
    }
    const definition = integration.definition;
    const components = Array.isArray(definition.components) ? definition.components : [];
    post({
      loaded: true,
      integration: {
        componentIds: components.flatMap((c) => (isRecord(c) && typeof c.componentId === 'string' ? [c.componentId] : [])),
        handlers: isRecord(definition.events) ? Object.keys(definition.events) : [],
        functions: Object.keys(definition).filter((k) => typeof definition[k] === 'function'),
      },
    });
  },
  (error) => post({ loaded: false, message: error instanceof Error ? error.message : String(error) }),
);
`;

/**
 * Loads the bundle as an ES module in a worker thread, without Node's globals ({@link LOADER}), and
 * returns what its default export is; the worker ends with the answer (a module that keeps timers
 * running cannot hold the check).
 */
function loadWithoutNode(code: string): Promise<Loaded> {
  return new Promise((resolvePromise) => {
    const worker = new Worker(LOADER, { eval: true, workerData: Buffer.from(code).toString('base64') });
    let settled = false;
    const settle = (value: Loaded) => {
      if (settled) return;
      settled = true;
      resolvePromise(value);
      void worker.terminate();
    };
    worker.once('message', (message: Loaded) => settle(message));
    worker.once('error', (error) => settle({ loaded: false, message: error.message }));
    worker.once('exit', () =>
      settle({ loaded: false, message: 'the module ended its thread while loading' }),
    );
  });
}

/** Event types a script may handle in `events` (component renders and hooks have their own slots). */
const HANDLED_EVENTS = Object.keys(EVENT_SCOPES).filter(
  (type) => type !== HOST_EVENT.uiRender && !HOOKS.includes(type),
);

/** The scope problem of handling `name`, if its scope is missing. */
function missingScope(name: string, scopes: readonly string[]): BundleProblem[] {
  const needed = (EVENT_SCOPES as Record<string, string | null>)[name];
  if (!needed || scopes.includes(needed)) return [];
  const internal = (INTERNAL_SCOPES as readonly string[]).includes(needed)
    ? ` \`${needed}\` is internal: only first-party integrations get it (\`platform check --first-party\`; the operator publishes with \`firstParty\`).`
    : '';
  return [
    {
      path: 'scopes',
      message: `the script handles \`${name}\`, which needs the scope \`${needed}\`; add \`${needed}\` to \`scopes\`, or the host never sends it.${internal}`,
    },
  ];
}

/**
 * Problems with the script's event handlers (`events` keys) and hooks (the published-script hook): a
 * name that is no event type (a typo never runs), a hook put in `events`, and an event whose scope the
 * manifest lacks (the host never sends it; see docs/first-integration.md).
 *
 * @example
 * ```ts
 * eventProblems({ scopes: ['space:content:read'] }, ['space_visibility_updated']);
 * // [{ path: 'scopes', message: 'the script handles `space_visibility_updated`, which needs ... }]
 * ```
 */
export function eventProblems(
  manifest: Pick<Manifest, 'scopes'>,
  handlers: readonly string[],
  hooks: readonly string[] = [],
): BundleProblem[] {
  const scopes: readonly string[] = manifest.scopes;
  const inEvents = handlers.flatMap((name): BundleProblem[] => {
    if (HOOKS.includes(name)) {
      return [
        {
          path: 'script',
          name,
          message: `\`${name}\` is not an \`events\` handler, so it never runs there: give it to \`createIntegration({ ${name} })\` itself.`,
        },
      ];
    }
    if (!HANDLED_EVENTS.includes(name)) {
      return [
        {
          path: 'script',
          name,
          message: `the script handles \`${name}\`, which is not an event type, so it never runs.${didYouMean(name, HANDLED_EVENTS) || ` Event types: ${HANDLED_EVENTS.join(', ')}.`}`,
        },
      ];
    }
    return missingScope(name, scopes);
  });
  return [...inEvents, ...hooks.flatMap((name) => missingScope(name, scopes))];
}
