import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, SHOTS, useExampleSession } from '../../../packages/dashboard/test/harness';
import { itPassesCheck, publishAndInstall } from '../../../test/examples/support';

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

const example = useExampleSession('examples/diagram');

describe('examples/diagram', () => {
  itPassesCheck(
    'examples/diagram',
    'passes platform check (bundled, booted in workerd, its block rendered and validated)',
  );

  it('is edited in Chromium: typing redraws the webframe preview, leaving saves the props', async () => {
    const { id } = await publishAndInstall(example, 'diagram');

    await example.page.goto(`${example.t.url}/installations/${id}#token=${encodeURIComponent(ADMIN_TOKEN)}`);
    const block = example.page.getByRole('region', { name: 'Preview of Diagram' });
    const editor = block.getByRole('textbox', { name: 'flow (editable)' });
    await poll(() => editor.inputValue()).toBe('Write --> Preview');
    const frame = block.frameLocator('iframe.ck-webframe');
    await poll(() => frame.getByRole('img').getAttribute('aria-label')).toBe('Diagram: Write to Preview');

    await editor.fill('Idea --> Draft\nDraft --> Review');
    await poll(() => frame.getByRole('img').getAttribute('aria-label')).toBe(
      'Diagram: Idea to Draft, Draft to Review',
    );
    await poll(() => block.locator('iframe.ck-webframe').getAttribute('style')).toContain('height: 60px');

    const saved = example.page.waitForRequest(
      (r) =>
        r.url().endsWith('/render') &&
        (JSON.parse(r.postData() ?? '{}') as { props?: { content?: string } }).props?.content ===
          'Idea --> Draft\nDraft --> Review',
    );
    await example.page.keyboard.press('Tab');
    await saved;
    await poll(() => editor.inputValue()).toBe('Idea --> Draft\nDraft --> Review');
    await example.page.screenshot({
      path: join(SHOTS, 'example-diagram.png'),
      fullPage: true,
    });
  });
});
