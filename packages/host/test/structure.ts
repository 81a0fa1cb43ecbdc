/**
 * The rules of the host's structure (docs/architecture.md "Inside the host"), as pure functions of an
 * import graph: a map from each source file (path under `packages/host/src/`) to the files it imports,
 * type-only imports included. `src/structure.test.ts` reads the real graph with madge and applies them.
 *
 * A unit is a top-level folder (`api`, `services`, `delivery`, ...) or a file at the root of `src/` (by its
 * name without `.ts`: `config`, `host`, ...). {@link HOST_LAYERS} lists the units from top to bottom: a
 * unit may import its own layer and the layers below it, never one above (an arrow that runs back up).
 * No two units, and no two folders at any depth (`delivery` and `delivery/host`), may depend on each
 * other, directly or around a ring.
 */

/** File → the files it imports (paths relative to `packages/host/src/`, with `.ts`). */
export type ImportGraph = Readonly<Record<string, readonly string[]>>;

/**
 * The host's layers, top to bottom. A unit may import units of its own layer or of layers below.
 *
 * @example
 * HOST_LAYERS[0]; // ['main', 'index', 'host', 'api-contract']: the composition, which wires everything
 */
export const HOST_LAYERS: readonly (readonly string[])[] = [
  // The composition: starts the host, wires the rooms together.
  ['main', 'index', 'host', 'api-contract'],
  // HTTP routes: validate, call a use case, shape the answer.
  ['api'],
  // The operator's use cases; they see delivery and invocation through their ports. self-api: integration
  // code's calls to the host's own API, served in-process (docs/host-api-from-integrations.md). visitor-auth:
  // protected sites (docs/visitor-authentication.md); content-sources: generated pages (docs/content-sources.md).
  ['services', 'self-api', 'visitor-auth', 'content-sources'],
  // Delivery statistics: read the attempt log, classify with delivery's policy.
  ['stats'],
  // The workers: webhook delivery, and the invocation of integration code. Neither imports the other.
  ['delivery', 'invocation'],
  // Host-wide parts the workers and the use cases share.
  ['metrics', 'executor', 'access', 'render', 'config', 'urls', 'auth', 'log-format', 'duration'],
  // The shared job loop, fair share, group commit, retry decisions, lease times: storage types only.
  ['jobs'],
  ['tracing', 'storage', 'net'],
  ['secrets', 'errors'],
];

/** Units that may not import each other although they share a layer. */
export const HOST_SEPARATE: readonly (readonly [string, string])[] = [['delivery', 'invocation']];

/**
 * The unit a file belongs to: its top-level folder, or its own name at the root.
 *
 * @example
 * unitOf('delivery/host/queue-engine.ts'); // 'delivery'
 * unitOf('config.ts'); // 'config'
 */
export function unitOf(file: string): string {
  const slash = file.indexOf('/');
  return slash === -1 ? file.replace(/\.tsx?$/, '') : file.slice(0, slash);
}

/**
 * The folder a file is in; a file at the root is a unit of its own, as for {@link unitOf}.
 *
 * @example
 * folderOf('delivery/host/queue-engine.ts'); // 'delivery/host'
 * folderOf('config.ts'); // 'config'
 */
export function folderOf(file: string): string {
  const slash = file.lastIndexOf('/');
  return slash === -1 ? unitOf(file) : file.slice(0, slash);
}

/**
 * Folders that depend on each other at any depth (`delivery/host` and `delivery/endpoint`, say). A folder
 * and the folders inside it are one concept with one front door, so the imports between them are left
 * out (`storage/index.ts` re-exports `storage/repos/`, whose files use `storage/sql.ts`): the rule is about
 * folders side by side, and the top-level rule ({@link groupCycles} with {@link unitOf}) already covers
 * every room as a whole.
 *
 * @example
 * folderCycles({ 'delivery/host/a.ts': ['delivery/endpoint/b.ts'], 'delivery/endpoint/b.ts': ['delivery/host/c.ts'] });
 * // [['delivery/endpoint', 'delivery/host']]
 */
export function folderCycles(graph: ImportGraph): string[][] {
  const nested = (a: string, b: string) => a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
  const sideBySide: Record<string, string[]> = {};
  for (const [from, targets] of Object.entries(graph)) {
    sideBySide[from] = targets.filter((to) => !nested(folderOf(from), folderOf(to)));
  }
  return groupCycles(sideBySide, folderOf);
}

/** One import between two groups (units or folders), with the file imports that make it. */
export interface GroupEdge {
  from: string;
  to: string;
  files: string[];
}

/**
 * The graph between groups of files (one edge per pair of groups, imports inside a group left out).
 *
 * @example
 * groupEdges({ 'a/x.ts': ['b/y.ts'] }, unitOf); // [{ from: 'a', to: 'b', files: ['a/x.ts -> b/y.ts'] }]
 */
export function groupEdges(graph: ImportGraph, groupOf: (file: string) => string): GroupEdge[] {
  const edges = new Map<string, GroupEdge>();
  for (const [from, targets] of Object.entries(graph)) {
    for (const to of targets) {
      const a = groupOf(from);
      const b = groupOf(to);
      if (a === b) continue;
      const key = `${a}\0${b}`;
      const edge = edges.get(key) ?? { from: a, to: b, files: [] };
      edge.files.push(`${from} -> ${to}`);
      edges.set(key, edge);
    }
  }
  return [...edges.values()].sort((x, y) => `${x.from} ${x.to}`.localeCompare(`${y.from} ${y.to}`));
}

/**
 * Every import that runs back up the layers, or between units kept apart, or from or to a unit no layer
 * names: one line each, naming the files.
 *
 * @example
 * layerViolations({ 'services/documents.ts': ['api/app-types.ts'] });
 * // ['services -> api runs back up (services/documents.ts -> api/app-types.ts)']
 */
export function layerViolations(
  graph: ImportGraph,
  layers: readonly (readonly string[])[] = HOST_LAYERS,
  separate: readonly (readonly [string, string])[] = HOST_SEPARATE,
): string[] {
  const rank = new Map<string, number>();
  layers.forEach((layer, index) => {
    for (const unit of layer) rank.set(unit, index);
  });
  const problems: string[] = [];
  for (const edge of groupEdges(graph, unitOf)) {
    const files = `(${edge.files.join(', ')})`;
    const from = rank.get(edge.from);
    const to = rank.get(edge.to);
    if (from === undefined || to === undefined) {
      const missing = from === undefined ? edge.from : edge.to;
      problems.push(`${missing} is in no layer: add it to HOST_LAYERS ${files}`);
    } else if (to < from) {
      problems.push(`${edge.from} -> ${edge.to} runs back up ${files}`);
    } else if (
      separate.some(([a, b]) => (a === edge.from && b === edge.to) || (a === edge.to && b === edge.from))
    ) {
      problems.push(`${edge.from} -> ${edge.to} joins two rooms kept apart ${files}`);
    }
  }
  return problems;
}

/**
 * The groups that depend on each other, directly or around a ring (strongly connected components of more
 * than one group), each sorted, with the imports that close it.
 *
 * @example
 * groupCycles({ 'a/x.ts': ['b/y.ts'], 'b/y.ts': ['a/z.ts'] }, unitOf); // [['a', 'b']]
 */
export function groupCycles(graph: ImportGraph, groupOf: (file: string) => string): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of groupEdges(graph, groupOf)) {
    next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
    if (!next.has(edge.to)) next.set(edge.to, []);
  }
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return components.sort((a, b) => a.join().localeCompare(b.join()));
}

/**
 * What a file of `jobs/` imports beyond its own room and storage types: the shared job loop knows no
 * worker. `source` is the file's text; relative imports only (packages are not the rule's concern).
 *
 * @example
 * jobsImportProblems('jobs/job-loop.ts', "import { x } from '../delivery/engine.js';");
 * // ["jobs/job-loop.ts imports ../delivery/engine.js: jobs/ imports only its own files and storage types"]
 */
export function jobsImportProblems(file: string, source: string): string[] {
  const problems: string[] = [];
  const pattern = /^\s*(import|export)\s+(type\s+)?[^'";]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/gm;
  for (const match of source.matchAll(pattern)) {
    const typeOnly = match[2] !== undefined;
    const specifier = match[3]!;
    if (specifier.startsWith('./')) continue;
    if (typeOnly && /^\.\.\/storage\//.test(specifier)) continue;
    problems.push(`${file} imports ${specifier}: jobs/ imports only its own files and storage types`);
  }
  return problems;
}
