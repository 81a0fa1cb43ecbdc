import { describe, expect, it } from 'vitest';
import { createSelfApiGate, SelfApiRefusedError } from './gate.js';
import { decideSelfCall, integrationOfDeployment } from './policy.js';

const ORIGIN = 'http://127.0.0.1:8080';

describe('decideSelfCall', () => {
  it('leaves every other origin to the network gate, the same host on another port included', () => {
    for (const url of [
      'http://127.0.0.1:8081/v1/x',
      'http://localhost:8080/v1/x',
      'https://127.0.0.1:8080/v1/x',
    ]) {
      expect(decideSelfCall(new URL(url), ORIGIN, 'Bearer pit_a.b')).toEqual({ kind: 'network' });
    }
  });

  it('serves /v1/ calls with an installation token, and refuses the rest of the origin', () => {
    expect(decideSelfCall(new URL(`${ORIGIN}/v1/installations/i`), ORIGIN, 'Bearer pit_i.mac')).toEqual({
      kind: 'host',
      token: 'pit_i.mac',
      path: '/v1/installations/i',
    });
    const page = decideSelfCall(new URL(`${ORIGIN}/metrics`), ORIGIN, 'Bearer pit_i.mac');
    expect(page).toMatchObject({ kind: 'refuse', reason: expect.stringContaining('/metrics') });
    for (const auth of [null, '', 'Bearer', 'Basic pit_x', 'Bearer pat_operator', 'Bearer org_token']) {
      const decision = decideSelfCall(new URL(`${ORIGIN}/v1/whoami`), ORIGIN, auth);
      expect(decision, String(auth)).toMatchObject({ kind: 'refuse' });
      if (decision.kind === 'refuse' && auth) expect(decision.reason).not.toContain(auth.slice(7) || '\0');
    }
  });

  it('serves under the base path of a public URL, with the path the router sees', () => {
    const base = 'https://x.example/platform';
    expect(decideSelfCall(new URL(`${base}/v1/whoami?a=1`), base, 'Bearer pit_i.m')).toEqual({
      kind: 'host',
      token: 'pit_i.m',
      path: '/v1/whoami?a=1',
    });
    for (const url of [
      'https://x.example/v1/whoami',
      'https://x.example/platformv1/whoami',
      `${base}/metrics`,
    ]) {
      expect(decideSelfCall(new URL(url), base, 'Bearer pit_i.m'), url).toMatchObject({ kind: 'refuse' });
    }
  });

  it('reads the integration name of a deployment id', () => {
    expect(integrationOfDeployment('hello@1.0.0#abc')).toBe('hello');
    expect(integrationOfDeployment('odd')).toBe('odd');
  });
});

describe('createSelfApiGate', () => {
  const served: string[] = [];
  const sent: string[] = [];
  const gate = createSelfApiGate({
    apiBase: () => ORIGIN,
    serve: (request) => {
      served.push(request.url);
      return new Response('api');
    },
    verifyToken: (token) => (token === 'pit_i1.good' ? 'i1' : token === 'pit_i2.good' ? 'i2' : null),
    integrationOf: async (id) => ({ i1: 'hello', i2: 'other' })[id] ?? null,
    network: async (request) => {
      sent.push(request.url);
      return new Response('net');
    },
  });
  const request = (url: string, token?: string) =>
    new Request(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  const caller = { deploymentKey: 'k', deploymentId: 'hello@1.0.0#abc' };

  it('serves its own installation token in-process and sends nothing to the network', async () => {
    const response = await gate(request(`${ORIGIN}/v1/installations/i1`, 'pit_i1.good'), caller);
    expect(await response.text()).toBe('api');
    expect(served).toEqual([`${ORIGIN}/v1/installations/i1`]);
    expect(sent).toEqual([]);
  });

  it('refuses a forged token and a token of another integration', async () => {
    await expect(gate(request(`${ORIGIN}/v1/whoami`, 'pit_i1.forged'), caller)).rejects.toThrow(
      SelfApiRefusedError,
    );
    await expect(gate(request(`${ORIGIN}/v1/whoami`, 'pit_i2.good'), caller)).rejects.toThrow(
      "not one of hello's installations",
    );
  });

  it('hands every other origin to the network gate', async () => {
    const response = await gate(request('https://api.example.com/x'), caller);
    expect(await response.text()).toBe('net');
    expect(sent).toEqual(['https://api.example.com/x']);
  });
});

describe('createSelfApiGate under a base path', () => {
  it('hands the router the path without the base path, with method and body', async () => {
    const seen: Array<{ url: string; method: string; body: string }> = [];
    const gate = createSelfApiGate({
      apiBase: () => `${ORIGIN}/platform`,
      serve: async (request) => {
        seen.push({ url: request.url, method: request.method, body: await request.text() });
        return new Response('api');
      },
      verifyToken: () => 'i1',
      integrationOf: async () => 'hello',
      network: async () => new Response('net'),
    });
    const request = new Request(`${ORIGIN}/platform/v1/installations/i1?x=1`, {
      method: 'PATCH',
      headers: { authorization: 'Bearer pit_i1.good' },
      body: '{"configuration":{}}',
    });
    expect(await (await gate(request)).text()).toBe('api');
    expect(seen).toEqual([
      { url: `${ORIGIN}/v1/installations/i1?x=1`, method: 'PATCH', body: '{"configuration":{}}' },
    ]);
  });
});
