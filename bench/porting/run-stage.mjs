// The `run` stage of `npm run measure:porting` (docs/porting-measurement.md): each integration that passes
// `check` is published to a real host (started here from the built packages, SQLite in a temporary folder,
// the address policy as a default host has it), installed with the sample configuration `check` uses
// (`sampleConfiguration` of @platform/manifest, per place), sent every platform event its manifest's scopes
// allow (the catalogue's samples), has each block and each configuration screen rendered, and each action
// found in the rendered output dispatched once. An unhandled error in any of that (an invocation answering
// 5xx or failing, a render the host refuses) fails the integration, with its cause.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIntegration, referencedEnvNames, sampleUrl } from '@platform/cli';
import { EVENT_CATALOGUE, PLATFORM_EVENT_TYPES, sampleEvent } from '@platform/events';
import { currentScopeName, sampleConfiguration, settingsPlace } from '@platform/manifest';
import { spawnHost } from '../delivery/host-process.mjs';
import { callHost } from '../delivery/lib.mjs';

/** How long the stage waits for the invocations of one integration's events (ms). */
const SETTLE_MS = 20_000;

/**
 * The cause of a failure, from its message: what kind of gap it is (docs/porting-measurement.md "Run
 * stage"). The first pattern that matches names it.
 */
const CAUSES = [
  ['host API refused by the address policy', /refused: Target .*(loopback|private)|address policy refuses/i],
  [
    'network (offline machine)',
    /fetch failed|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|Network connection lost|internal error; reference/i,
  ],
  ['host API route missing', /ApiError: \w+ \/v1\/\S+ failed: HTTP 404|No route|not_found/i],
  ['host API call refused', /ApiError: \w+ \/v1\/\S+ failed: HTTP (401|403)/i],
  [
    'API client group missing',
    /Cannot read properties of undefined \(reading '(get|list|update|create|search)\w*'\)/,
  ],
  ['undefined property', /Cannot read properties of (undefined|null)/],
  [
    'API client method missing',
    /\b(integrations|spaces|orgs|organizations|sites|revisions|pages|user)\.\w+ is not a function/,
  ],
  ['not a function', /is not a function/],
  ['invalid URL', /Invalid URL/],
  ['invalid ContentKit', /invalid_render_output|rendered invalid ContentKit/],
  ['component not found', /component_not_found/],
  ['timeout', /timed out|integration_timeout|exceeded/i],
  ['configuration missing', /configuration|not configured|missing (a |the )?(token|secret|key)/i],
];

/** The cause of a failure message. @example causeOf('TypeError: Invalid URL string'); // 'invalid URL' */
export function causeOf(message) {
  for (const [cause, pattern] of CAUSES) if (pattern.test(message)) return cause;
  return 'other';
}

/** Starts `npm start`'s entry (the built host) on a free port with its own data folder. */
async function startHost(root) {
  const dataDir = mkdtempSync(join(tmpdir(), 'porting-run-'));
  const token = `pat_${randomBytes(16).toString('hex')}`;
  const host = await spawnHost(
    { PLATFORM_DATA_DIR: dataDir, PLATFORM_ADMIN_TOKEN: token, LOG_LEVEL: 'error' },
    [],
    join(root, 'packages/host/dist/main.js'),
  );
  const { url } = host;
  const api = async (method, path, body) => {
    const { status, body: answer } = await callHost(url, token, method, path, body);
    return { status, body: answer };
  };
  return {
    url,
    api,
    async stop() {
      await host.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** An error body's message, or the text. */
function messageOf(body) {
  if (body && typeof body === 'object' && body.error) return `${body.error.code}: ${body.error.message}`;
  return typeof body === 'string' ? body.slice(0, 300) : JSON.stringify(body).slice(0, 300);
}

/** The places an integration is installed in: its manifest's `target` (`all`, or none: a space and a site). */
export function placesOf(manifest, name) {
  const target = manifest.target ?? 'all';
  const places = [];
  if (target === 'space' || target === 'all') places.push({ target: 'space', space: `space_run_${name}` });
  if (target === 'site' || target === 'all') places.push({ target: 'site', site: `site_run_${name}` });
  if (target === 'organization') places.push({ target: 'organization', organization: 'org_run' });
  return places;
}

/** The platform events a manifest's scopes allow, each with the place it happens in. */
export function allowedEvents(manifest) {
  const scopes = new Set((manifest.scopes ?? []).map((s) => currentScopeName(String(s))));
  return PLATFORM_EVENT_TYPES.filter((type) => {
    const scope = EVENT_CATALOGUE[type].scope;
    return scope === null || scopes.has(scope);
  });
}

/** Every action of a rendered element tree sent to the integration (`onPress` and the other `on*` handlers' `{ action }`, but `@ui.*`). */
export function actionsIn(element, out = []) {
  if (Array.isArray(element)) {
    for (const child of element) actionsIn(child, out);
    return out;
  }
  if (!element || typeof element !== 'object') return out;
  for (const [key, value] of Object.entries(element)) {
    if (/^on[A-Z]/.test(key) && value && typeof value === 'object' && typeof value.action === 'string') {
      // `@ui.*` actions are the editor's own (open a URL, a modal): never sent to the integration.
      if (value.action.startsWith('@ui.')) continue;
      if (!out.some((a) => JSON.stringify(a) === JSON.stringify(value))) out.push(value);
    } else if (value && typeof value === 'object') actionsIn(value, out);
  }
  return out;
}

/** The components to render: every block, and each configuration screen, with the place it is shown in. */
function componentsOf(manifest) {
  const out = [];
  for (const block of manifest.blocks ?? []) {
    out.push({
      componentId: block.id,
      kind: 'block',
      for: ['space', 'organization', 'site'],
      context: { type: 'document', editable: true },
      // A `urlUnfurl` block is created by pasting a URL: rendered as the editor creates it (as `check` does).
      ...(block.urlUnfurl?.[0]
        ? { action: { action: '@link.unfurl', url: sampleUrl(block.urlUnfurl[0]) } }
        : {}),
    });
  }
  for (const [place, settings] of Object.entries(manifest.configurations ?? {})) {
    if (!settings?.componentId) continue;
    const targets =
      place === 'site' ? ['site'] : place === 'space' ? ['space', 'site'] : ['organization', 'space'];
    out.push({
      componentId: settings.componentId,
      kind: `configuration (${place})`,
      for: targets,
      context: { type: 'configuration', editable: true },
    });
  }
  return out;
}

/** Runs one integration on the host; resolves with its report. */
async function runOne(host, item) {
  const failures = [];
  const fail = (step, message) =>
    failures.push({ step, cause: causeOf(message), message: message.slice(0, 400) });
  const report = { name: item.name, ok: false, events: 0, renders: 0, actions: 0, invocations: 0, failures };
  let built;
  try {
    built = await buildIntegration(item.dir, {
      mode: 'publish',
      fallbackOrganization: 'org_run',
      firstParty: item.firstParty,
    });
  } catch (error) {
    fail('build', String(error?.message ?? error));
    return report;
  }
  const { manifest } = built;
  const env = Object.fromEntries(
    referencedEnvNames(manifest).map((n) => [n, `run-stage-${n.toLowerCase()}`]),
  );
  const published = await host.api('POST', '/v1/integrations', {
    manifest: built.manifestText,
    bundle: built.bundle.code,
    ...(Object.keys(env).length ? { env } : {}),
    ...(Object.keys(built.assets).length ? { assets: built.assets } : {}),
    ...(item.firstParty ? { firstParty: true } : {}),
  });
  if (published.status !== 201) {
    fail('publish', `HTTP ${published.status} ${messageOf(published.body)}`);
    return report;
  }
  const installations = [];
  for (const place of placesOf(manifest, manifest.name)) {
    const configuration = sampleConfiguration(manifest, settingsPlace(manifest, place.target));
    const { target, ...where } = place;
    const res = await host.api('POST', '/v1/installations', {
      integration: manifest.name,
      ...where,
      configuration,
    });
    if (res.status !== 201) fail(`install (${target})`, `HTTP ${res.status} ${messageOf(res.body)}`);
    else installations.push({ ...place, id: res.body.id, status: res.body.status });
  }
  if (installations.length === 0) return report;
  // A pending installation (a required setting the sample cannot set, e.g. an OAuth connection) gets no
  // events: reported, not a failure.
  const pending = installations.filter((i) => i.status !== 'active').map((i) => i.target);
  if (pending.length > 0) report.pending = pending;

  // Events: each one the scopes allow, in the place it belongs to (a site event to the site installation).
  const expected = new Map(); // installation id -> event ids
  for (const type of allowedEvents(manifest)) {
    const where = EVENT_CATALOGUE[type].place;
    const inst = installations.find((i) => i.target === where) ?? installations[0];
    const event = sampleEvent(type, {
      space: inst.space ?? `space_run_${manifest.name}`,
      site: inst.site ?? `site_run_${manifest.name}`,
    });
    const res = await host.api('POST', '/v1/events', event);
    if (res.status !== 202) fail(`event ${type}`, `HTTP ${res.status} ${messageOf(res.body)}`);
    else {
      report.events++;
      const ids = expected.get(inst.id) ?? [];
      ids.push(event.eventId);
      expected.set(inst.id, ids);
    }
  }

  // Renders: each component on each installation it is shown for, then each action it offers, once.
  for (const component of componentsOf(manifest)) {
    const inst = component.for.map((t) => installations.find((i) => i.target === t)).find(Boolean);
    if (!inst) continue;
    const step = `render ${component.kind} ${component.componentId}`;
    const rendered = await host.api('POST', `/v1/installations/${inst.id}/render`, {
      componentId: component.componentId,
      props: {},
      context: component.context,
      ...(component.action ? { action: component.action } : {}),
    });
    report.renders++;
    if (rendered.status >= 500 || rendered.status === 404) {
      if (rendered.status !== 500) fail(step, `HTTP ${rendered.status} ${messageOf(rendered.body)}`);
      continue; // a 500 is the integration's unhandled error: read from its invocation log below
    }
    if (rendered.status !== 200) continue; // an ExposableError: the block shows its message
    for (const action of actionsIn(rendered.body.element)) {
      const res = await host.api('POST', `/v1/installations/${inst.id}/render`, {
        componentId: component.componentId,
        props: rendered.body.props ?? {},
        state: rendered.body.state ?? {},
        context: component.context,
        action,
      });
      report.actions++;
      if (res.status >= 500 && res.status !== 500)
        fail(`${step} action ${action.action}`, `HTTP ${res.status} ${messageOf(res.body)}`);
    }
  }

  // The invocations: set-up events, the events sent, renders and actions; wait for the events to arrive.
  const deadline = Date.now() + SETTLE_MS;
  let logs = new Map();
  for (;;) {
    logs = new Map();
    for (const inst of installations) {
      const res = await host.api('GET', `/v1/installations/${inst.id}/logs?limit=200`);
      logs.set(inst.id, res.status === 200 ? res.body.invocations : []);
    }
    const setUp = installations.every((inst) =>
      logs.get(inst.id).some((i) => i.eventType === 'installation_setup'),
    );
    const arrived = [...expected].every(([id, events]) =>
      events.every((e) => logs.get(id).some((i) => i.eventId === e)),
    );
    if ((arrived && setUp) || Date.now() > deadline) break;
    await sleep(250);
  }
  for (const [id, events] of expected) {
    const missing = events.filter((e) => !logs.get(id).some((i) => i.eventId === e));
    if (missing.length > 0) report.undelivered = (report.undelivered ?? 0) + missing.length;
  }
  for (const list of logs.values()) {
    report.invocations += list.length;
    for (const inv of list) {
      if (inv.status !== 'error' && inv.status < 500) continue;
      const line =
        inv.lines.find((l) => l.level === 'error' && /Unhandled error|Error/.test(l.message)) ??
        inv.lines.find((l) => l.level === 'error') ??
        inv.lines.at(-1);
      fail(
        `invocation ${inv.eventType}`,
        `HTTP ${inv.status}: ${line?.message.split('\n')[0] ?? 'no log line'}`,
      );
    }
  }
  // One failure per step and cause is enough to read.
  const seen = new Set();
  report.failures = failures.filter((f) => {
    const key = `${f.step}|${f.cause}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  report.ok = report.failures.length === 0;
  return report;
}

/**
 * Runs the stage over the integrations given (each `{ name, dir, firstParty }`, prepared and passing
 * `check`), on one host; resolves with a report per integration and the count per cause.
 *
 * @example
 * const run = await runStage(root, [{ name: 'mermaid', dir: '.tmp/porting/mermaid', firstParty: false }]);
 */
export async function runStage(root, items, log = console.log) {
  const host = await startHost(root);
  const rows = [];
  try {
    for (const item of items) {
      let row;
      try {
        row = await runOne(host, item);
      } catch (error) {
        row = {
          name: item.name,
          ok: false,
          failures: [
            { step: 'run', cause: 'stage error', message: String(error?.stack ?? error).slice(0, 400) },
          ],
        };
      }
      rows.push(row);
      const first = row.failures[0];
      const note = row.undelivered
        ? ` (${row.undelivered} event(s) not delivered${row.pending ? `: ${row.pending.join(', ')} installation pending` : ''})`
        : '';
      log(
        `${row.ok ? 'pass' : 'FAIL'}  ${row.name}${note}${row.ok ? '' : `: [${first.cause}] ${first.step}: ${first.message.split('\n')[0].slice(0, 160)}`}`,
      );
    }
  } finally {
    await host.stop();
  }
  const byCause = {};
  for (const row of rows) {
    for (const cause of new Set(row.failures.map((f) => f.cause))) byCause[cause] = (byCause[cause] ?? 0) + 1;
  }
  return { passed: rows.filter((r) => r.ok).length, total: rows.length, byCause, rows };
}
