import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, SHOTS, useExampleSession } from '../../../packages/dashboard/test/harness';
import { itPassesCheck, publishAndInstall } from '../../../test/examples/support';

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });
const loaded = (img: ReturnType<Page['locator']>) =>
  img.evaluate((el: HTMLImageElement) => (el.complete ? el.naturalWidth : 0));

const example = useExampleSession('examples/embed');

/** Pastes `text` into the focused element, as a user's Ctrl+V would. */
async function paste(text: string) {
  await example.page.evaluate((value) => {
    const data = new DataTransfer();
    data.setData('text/plain', value);
    document.activeElement?.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}

describe('examples/embed', () => {
  itPassesCheck('examples/embed', 'passes platform check (its urlUnfurl block rendered after @link.unfurl)');

  it('becomes a card when its link is pasted in the editor; the preview opens in a modal', async () => {
    await publishAndInstall(example, 'boards-embed');

    await example.page.goto(`${example.t.url}/spaces/docs#token=${encodeURIComponent(ADMIN_TOKEN)}`);
    await example.page.getByRole('heading', { name: 'Space docs' }).waitFor();
    const text = example.page.getByLabel('Page text');
    await text.focus();
    await poll(async () => {
      await paste('https://boards.example/b/roadmap-q3');
      return example.page.getByRole('region', { name: 'Board' }).count();
    }).toBeGreaterThan(0);
    expect(await text.inputValue()).not.toContain('boards.example');

    const card = example.page.getByRole('article', { name: 'Board roadmap-q3' });
    await card.waitFor();
    await poll(() => loaded(card.getByRole('img', { name: 'Preview of roadmap-q3' }))).toBe(640);
    await card.getByRole('button', { name: 'Open preview' }).press('Enter');
    const dialog = example.page.getByRole('dialog');
    await poll(() => loaded(dialog.getByRole('img', { name: 'Large preview of roadmap-q3' }))).toBe(640);
    await example.page.screenshot({
      path: join(SHOTS, 'example-embed.png'),
      fullPage: true,
    });
    await dialog.getByRole('button', { name: 'Done' }).click();
    await poll(() => example.page.getByRole('dialog').count()).toBe(0);

    // A pasted URL no block unfurls stays text.
    await text.focus();
    await paste('https://elsewhere.example/x');
    expect(await example.page.getByRole('region', { name: 'Board' }).count()).toBe(1);
  });
});
