import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, openInsertMenu, publishFolder, useExampleSession } from './harness';

// The space editor and Markdown, in Chromium against a real host: examples/diagram declares
// `blocks[].markdown: { codeblock: flow, body: content }`.
const example = useExampleSession();
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });

/** Puts `text` on the system clipboard and pastes it into `field` with Ctrl+V, at its end. */
async function paste(page: Page, field: Locator, text: string) {
  await page
    .context()
    .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  await field.focus();
  await field.press('End');
  await field.press('Control+V');
}

async function exportedMarkdown(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Export Markdown' }).click();
  const dialog = page.getByRole('dialog', { name: 'Page as Markdown' });
  const value = await dialog.getByLabel('Markdown of the page').inputValue();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'detached' });
  return value;
}

describe('space editor: Markdown', () => {
  it('turns a pasted flow code block into the diagram block, and exports the page back to Markdown', async () => {
    const { t, page } = example;
    const published = await publishFolder(t, 'examples/diagram');
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    const installed = await t.api<{ id: string }>('POST', '/v1/installations', {
      integration: 'diagram',
      space: 'md',
    });
    expect(installed.status, JSON.stringify(installed.body)).toBe(201);

    await page.goto(`${t.url}/spaces/md#token=${encodeURIComponent(ADMIN_TOKEN)}`);
    const text = page.locator('#doc-text');
    await text.fill('Intro ');
    // the editor knows the space's blocks (and so their Markdown languages) once it has loaded them
    await openInsertMenu(page, '', /Diagram/);
    await page.keyboard.press('Escape');

    await paste(page, text, 'Plan:\n\n```flow\nIdea --> Draft\n```\n\n```js\nkeep(1)\n```\nAfter');
    const block = page.getByRole('region', { name: 'Diagram' });
    const code = block.getByRole('textbox', { name: 'flow (editable)' });
    await poll(() => code.inputValue()).toBe('Idea --> Draft');
    await poll(() =>
      block.frameLocator('iframe.ck-webframe').getByRole('img').getAttribute('aria-label'),
    ).toBe('Diagram: Idea to Draft');
    expect(await text.inputValue()).toBe('Intro Plan:');
    // an unknown code block stays text, after the diagram
    expect(await page.getByLabel('Page text (part 2)').inputValue()).toBe('```js\nkeep(1)\n```\nAfter');

    expect(await exportedMarkdown(page)).toBe(
      'Intro Plan:\n\n```flow\nIdea --> Draft\n```\n\n```js\nkeep(1)\n```\nAfter\n',
    );

    // an edit of the diagram (`@editor.node.updateProps`) is what the export writes
    await code.fill('Idea --> Review');
    await page.keyboard.press('Tab');
    await poll(() => exportedMarkdown(page)).toContain('```flow\nIdea --> Review\n```');

    // the import dialog adds Markdown at the end: its flow block becomes a second diagram
    await page.getByRole('button', { name: 'Import Markdown' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Markdown' });
    await dialog.getByLabel('Markdown to add at the end of the page').fill('```flow\nA --> B\n```\n');
    await dialog.getByRole('button', { name: 'Import' }).click();
    await poll(() => page.getByRole('region', { name: 'Diagram' }).count()).toBe(2);
    await poll(() =>
      page.getByRole('region', { name: 'Diagram' }).nth(1).getByRole('textbox').inputValue(),
    ).toBe('A --> B');
    expect(await exportedMarkdown(page)).toMatch(/After\n\n```flow\nA --> B\n```\n$/);
  });
});
