import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, launchBrowser, openInsertMenu, publishFolder, useExampleSession } from './harness';

// The space document is kept on the host: a block's props (`@editor.node.updateProps`) survive a
// reload and show in another browser; a save based on an old version is not lost silently.
const example = useExampleSession();
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });

interface Doc {
  revision: number;
  nodes: Array<{ type: string; text?: string; componentId?: string; props?: Record<string, unknown> }>;
}

describe('space editor: the document on the host', () => {
  it('keeps block props edited in place across a reload and in a second browser; says when another browser saved', async () => {
    const { t, page } = example;
    expect((await publishFolder(t, 'examples/diagram')).status).toBe(201);
    const installed = await t.api<{ id: string }>('POST', '/v1/installations', {
      integration: 'diagram',
      space: 'kept',
    });
    expect(installed.status).toBe(201);
    const url = `${t.url}/spaces/kept#token=${encodeURIComponent(ADMIN_TOKEN)}`;

    await page.goto(url);
    await page.locator('#doc-text').fill('Architecture');
    await openInsertMenu(page, 'diagram', /Diagram/);
    await page.keyboard.press('Enter');
    const code = page
      .getByRole('region', { name: 'Diagram' })
      .getByRole('textbox', { name: 'flow (editable)' });
    await poll(() => code.inputValue()).toBe('Write --> Preview');

    const patched = page.waitForResponse(
      (r) => r.request().method() === 'PATCH' && r.url().includes('/v1/spaces/kept/document/blocks/'),
    );
    await code.fill('Plan --> Build');
    await page.keyboard.press('Tab'); // onContentChange: @editor.node.updateProps
    expect((await patched).status()).toBe(200);
    const stored = (await t.api<Doc>('GET', '/v1/spaces/kept/document')).body;
    expect(stored.nodes).toEqual([
      { type: 'text', text: 'Architecture' },
      expect.objectContaining({
        type: 'block',
        componentId: 'diagram',
        props: { content: 'Plan --> Build' },
      }),
    ]);

    await page.reload();
    await poll(() => code.inputValue()).toBe('Plan --> Build');
    expect(await page.locator('#doc-text').inputValue()).toBe('Architecture');

    const second = await launchBrowser();
    try {
      await second.page.goto(url);
      const there = second.page
        .getByRole('region', { name: 'Diagram' })
        .getByRole('textbox', { name: 'flow (editable)' });
      await poll(() => there.inputValue()).toBe('Plan --> Build');
      expect(await second.page.locator('#doc-text').inputValue()).toBe('Architecture');

      // the second browser saves first; the first one, still on the old version, is told and updated
      const saved = second.page.waitForResponse((r) => r.request().method() === 'PUT' && r.status() === 200);
      await second.page.locator('#doc-text').fill('Architecture (reviewed)');
      await saved;
      const refused = page.waitForResponse((r) => r.request().method() === 'PUT' && r.status() === 409);
      await page.locator('#doc-text').fill('Architecture draft');
      await refused;
      await page.getByText('This page was changed in another tab or browser').waitFor();
      await poll(() => page.locator('#doc-text').inputValue()).toBe('Architecture (reviewed)');
      await poll(() => code.inputValue()).toBe('Plan --> Build');
    } finally {
      await second.close();
    }
    expect((await t.api<Doc>('GET', '/v1/spaces/kept/document')).body.nodes[0]).toEqual({
      type: 'text',
      text: 'Architecture (reviewed)',
    });
  });
});
