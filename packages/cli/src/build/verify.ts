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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * Loads the bundle as an ES module and checks that its default export is an integration made
 * with `createIntegration()`; returns its component ids.
 *
 * @example
 * ```ts
 * const inspection = await inspectBundle(bundle.code, 'src/index.ts');
 * if (inspection.ok) console.log(inspection.componentIds);
 * ```
 */
export async function inspectBundle(code: string, entry: string): Promise<ModuleInspection> {
  let mod: unknown;
  try {
    mod = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, message: `${entry} throws when loaded: ${reason}` };
  }
  const integration = isRecord(mod) ? mod.default : undefined;
  if (
    !isRecord(integration) ||
    typeof integration.fetch !== 'function' ||
    !isRecord(integration.definition)
  ) {
    return {
      ok: false,
      message: `the default export of ${entry} is not an integration; export the result of \`createIntegration({ ... })\` from @platform/runtime.`,
    };
  }
  const components = integration.definition.components;
  const componentIds = Array.isArray(components)
    ? components.flatMap((c: unknown) =>
        isRecord(c) && typeof c.componentId === 'string' ? [c.componentId] : [],
      )
    : [];
  const events = integration.definition.events;
  const handlers = isRecord(events) ? Object.keys(events) : [];
  const { definition } = integration;
  const hooks = HOOKS.filter((name) => typeof definition[name] === 'function');
  return { ok: true, componentIds, handlers, hooks };
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
