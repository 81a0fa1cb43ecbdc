import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleIntegration, startTestHost, type TestHost } from './helpers.js';

/** An integration whose components render good, bad and failing ContentKit (docs/contentkit.md). */
const SOURCE = `
import { ContentKit, createComponent, createIntegration, ExposableError } from '@platform/runtime';
let renders = 0;
const good = createComponent({
  componentId: 'good',
  render: async (element) => {
    renders += 1;
    element.setCache({ maxAge: 60 });
    return ContentKit.block(ContentKit.text('render ' + renders), ContentKit.card({ title: 'Card' }, ContentKit.markdown('**hi**')));
  },
});
const bad = createComponent({
  componentId: 'bad',
  render: async () => ({ type: 'block', children: [{ type: 'text', text: 'a' }, { type: 'divider' }, { type: 'button', label: 'Go', onPress: 'go' }] }),
});
const exposed = createComponent({
  componentId: 'exposed',
  render: async () => { throw new ExposableError('Connect your account first.'); },
});
export const helper = () => 'named exports are fine';
export default createIntegration({ components: [good, bad, exposed] });
`;

let t: TestHost;
let installation = '';

beforeAll(async () => {
  t = await startTestHost();
  const dir = mkdtempSync(join(tmpdir(), 'platform-ck-'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src/index.ts'), SOURCE);
  const manifest = `name: ckrender\ntitle: CK\ndescription: ContentKit render test\norganization: test\nvisibility: private\nscopes:\n  - space:content:read\n`;
  const published = await t.api('POST', '/v1/integrations', {
    manifest,
    bundle: await bundleIntegration(dir, 'src/index.ts'),
  });
  expect(published.status, JSON.stringify(published.body)).toBe(201);
  const inst = await t.api<{ id: string }>('POST', '/v1/installations', {
    integration: 'ckrender',
    space: 'space-ck',
  });
  expect(inst.status, JSON.stringify(inst.body)).toBe(201);
  installation = inst.body.id;
});
afterAll(async () => {
  await t?.close();
});

const render = (body: Record<string, unknown>) =>
  t.api<Record<string, unknown>>('POST', `/v1/installations/${installation}/render`, { props: {}, ...body });

describe('POST /v1/installations/{id}/render validates ContentKit', () => {
  it('refuses an invalid tree with 502 invalid_render_output naming the element path', async () => {
    const res = await render({ componentId: 'bad' });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({
      error: {
        code: 'invalid_render_output',
        message: expect.stringContaining(
          'element.children[2].onPress: expected an action ({ "action": "name", ...payload })',
        ),
      },
    });
  });

  it("passes an ExposableError's message through to the user", async () => {
    const res = await render({ componentId: 'exposed' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'exposable_error', message: 'Connect your account first.' } });
  });

  it('answers a valid tree, and honours its cache hint (no second invocation; never with an action)', async () => {
    const first = await render({ componentId: 'good' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ state: {}, cache: { maxAge: 60 } });
    expect(JSON.stringify(first.body.element)).toContain('render 1');
    const again = await render({ componentId: 'good' });
    expect(JSON.stringify(again.body.element)).toContain('render 1');
    const withAction = await render({ componentId: 'good', action: { action: 'refresh' } });
    expect(JSON.stringify(withAction.body.element)).toContain('render 2');
  });
});
