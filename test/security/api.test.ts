import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestHost, type TestHost } from '../../packages/host/test/helpers.js';

/**
 * Every route of the host's own `/openapi.json`, called with every kind of token that has no right to it,
 * must answer 401 or 403, and never read or describe its body first (no 400 with the request schema).
 * See docs/security.md "Who may do what".
 */

interface OpenApiDoc {
  paths: Record<string, Record<string, { security?: unknown[] }>>;
}

let t: TestHost;
let own: string;
let otherToken: string;

const BODIES: Array<[string, string | undefined]> = [
  ['no body', undefined],
  ['empty object', '{}'],
  ['not JSON', '{"oops'],
];

beforeAll(async () => {
  t = await startTestHost();
  const install = async (space: string) => {
    const res = await t.api<{ id: string }>('POST', '/v1/installations', {
      integration: 'webhook',
      space,
      configuration: { url: 'https://example.com/hook' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id;
  };
  own = await install('space-a');
  const other = await install('space-b');
  otherToken = t.host.context.tokens.issue(other);
});
afterAll(async () => {
  await t.close();
});

describe('route x token matrix', () => {
  it('answers only 401/403 to no, malformed, wrong and another installation’s token on every documented route', async () => {
    const doc = (await (await fetch(`${t.host.url}/openapi.json`)).json()) as OpenApiDoc;
    const tokens: Array<[string, Record<string, string>, number]> = [
      ['none', {}, 401],
      ['malformed', { authorization: 'Bearer' }, 401],
      ['malformed scheme', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }, 401],
      ['wrong', { authorization: 'Bearer pat_wrong_token_0123456789abcdef' }, 401],
      [
        'forged installation',
        { authorization: `Bearer pit_${own}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA` },
        401,
      ],
      ['another installation', { authorization: `Bearer ${otherToken}` }, 403],
    ];
    const seen: string[] = [];
    let calls = 0;
    for (const [template, operations] of Object.entries(doc.paths)) {
      const path = template
        .replace('{id}', own)
        .replace('{deliveryId}', 'dlv_0000')
        // an integration the installations below are not of: its installation-token routes refuse them
        .replace('{name}', 'another-integration')
        .replace('{hash}', '0'.repeat(64));
      for (const [method, operation] of Object.entries(operations)) {
        // Routes that declare no security need no token (assets: icons and previews an <img> loads).
        if (Array.isArray(operation.security) && operation.security.length === 0) continue;
        seen.push(`${method.toUpperCase()} ${template}`);
        for (const [tokenKind, headers, expected] of tokens) {
          // every valid token may ask who it is (test/security/access-matrix.test.ts covers the rest)
          if (template === '/v1/whoami' && tokenKind === 'another installation') continue;
          for (const [bodyKind, body] of method === 'get' ? BODIES.slice(0, 1) : BODIES) {
            const res = await fetch(`${t.host.url}${path}?limit=abc&since=x`, {
              method: method.toUpperCase(),
              headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
              ...(body === undefined ? {} : { body }),
            });
            calls++;
            const text = await res.text();
            const where = `${method.toUpperCase()} ${template} with ${tokenKind} token, ${bodyKind}: ${res.status} ${text}`;
            expect(res.status, where).toBe(expected);
            expect(text, where).not.toMatch(/invalid_request|issues/);
          }
        }
      }
    }
    // The walk covered the API, not an empty document.
    expect(seen).toEqual(
      expect.arrayContaining([
        'POST /v1/events',
        'POST /v1/integrations',
        'POST /v1/installations',
        'PATCH /v1/installations/{id}',
        'POST /v1/installations/{id}/render',
        'POST /v1/installations/{id}/deliveries/redeliver',
        'GET /v1/status',
      ]),
    );
    expect(calls).toBeGreaterThan(150);
  });
});

describe('built-in integrations are reserved', () => {
  it('answers 409 reserved_name to a manifest named webhook, and the built-in keeps working', async () => {
    for (const dev of [false, true]) {
      const res = await t.api<{ error: { code: string; message: string } }>('POST', '/v1/integrations', {
        manifest:
          'name: webhook\ntitle: Evil\ndescription: replaces the built-in\norganization: x\nvisibility: private\nscopes: []\n',
        bundle: 'export default { fetch() { return new Response("pwned"); } };',
        dev,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body.error.code).toBe('reserved_name');
      expect(res.body.error.message).toContain('"webhook"');
    }
    const view = await t.api<{ firstParty: boolean }>('GET', '/v1/integrations/webhook');
    expect(view.body.firstParty).toBe(true);
    const installed = await t.api<{ id: string }>('POST', '/v1/installations', {
      integration: 'webhook',
      space: 'space-c',
      configuration: { url: 'https://example.com/hook' },
    });
    expect(installed.status, JSON.stringify(installed.body)).toBe(201);
  });
});

describe('malformed requests', () => {
  it('never get a 5xx, from the API or the content origin, and the host keeps answering', async () => {
    const paths = [
      '/v1/events',
      '/v1/integrations',
      '/v1/installations',
      `/v1/installations/${own}`,
      `/v1/installations/${own}/render`,
      `/v1/installations/${own}/logs?limit=-1&since=abc`,
      `/v1/installations/${own}/deliveries?state=nope&limit=99999&cursor=%ZZ`,
      `/v1/installations/${own}/deliveries/redeliver`,
      '/v1/installations/..%2F..%2Fetc%2Fpasswd',
      '/v1/installations/%00',
      `/v1/installations/${'x'.repeat(5000)}`,
      `/v1/integrations/webhook/installations/${own}/public/x`,
      '/v1/integrations/%E0%A4%A/installations/a/public',
      '/v1/assets/not-a-hash',
      '/v1/status?x=%',
      '/openapi.json/..',
    ];
    const bodies: Array<[string, string]> = [
      ['application/json', ''],
      ['application/json', '{'],
      ['application/json', 'null'],
      ['application/json', '[]'],
      ['application/json', '"text"'],
      ['application/json', '{"type":123,"eventId":{},"spaceId":[]}'],
      ['application/json', `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`],
      ['application/json', '{"n":1e999999,"s":"\\ud800"}'],
      ['application/json', '{"manifest":"name: [\\n","bundle":"x"}'],
      [
        'application/json',
        '{"integration":"webhook","space":"s","configuration":{"url":"javascript:alert(1)"}}',
      ],
      ['application/json', '{"componentId":"x","props":"notanobject"}'],
      ['application/json', Buffer.from([0xff, 0xfe, 0x00, 0x7b]).toString('latin1')],
      ['text/plain', 'hello'],
      ['application/x-www-form-urlencoded', 'a=1&b=%'],
      ['multipart/form-data; boundary=x', '--x\r\nbroken'],
    ];
    const methods = ['POST', 'PATCH', 'PUT', 'DELETE'];
    let count = 0;
    const origins = [t.host.url, t.host.contentUrl];
    for (const origin of origins) {
      for (const path of paths) {
        for (const method of methods) {
          const answers = await Promise.all(
            bodies.map(async ([type, body]) => {
              const res = await fetch(`${origin}${path}`, {
                method,
                headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': type },
                body,
              });
              return {
                status: res.status,
                what: `${method} ${origin}${path} ${type} ${body.slice(0, 60)}: ${(await res.text()).slice(0, 200)}`,
              };
            }),
          );
          for (const { status, what } of answers) expect(status, what).toBeLessThan(500);
          count += answers.length;
        }
        const get = await fetch(`${origin}${path}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
        expect(get.status, `GET ${origin}${path}`).toBeLessThan(500);
        count++;
      }
    }
    expect(count).toBeGreaterThan(1900);
    expect((await fetch(`${t.host.url}/healthz`)).status).toBe(200);
  }, 60_000);
});
