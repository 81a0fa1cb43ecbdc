import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseManifest } from './parse.js';

const FIXTURES = fileURLToPath(new URL('../test/fixtures/', import.meta.url));

const BASE = `name: demo
title: Demo
description: A demo integration
organization: acme
visibility: private
scopes: []
`;

interface FileCase {
  name: string;
  extra: string;
  want: { path: string; line: number; column: number; severity: 'error' | 'warning'; message: RegExp } | 'ok';
}

const cases: FileCase[] = [
  { name: 'svg icon is fine', extra: 'icon: assets/icon.svg\n', want: 'ok' },
  { name: 'png icon is fine', extra: 'icon: ./assets/wide.png\n', want: 'ok' },
  { name: 'existing script is fine', extra: 'script: integration.js\n', want: 'ok' },
  { name: '2:1 PNG preview is fine', extra: 'previewImages: [assets/wide.png]\n', want: 'ok' },
  { name: '2:1 JPEG preview is fine', extra: 'previewImages: [assets/wide.jpg]\n', want: 'ok' },
  {
    name: 'missing icon',
    extra: 'icon: assets/nope.png\n',
    want: { path: 'icon', line: 7, column: 7, severity: 'error', message: /not found next to the manifest/ },
  },
  {
    name: 'absolute icon path',
    extra: 'icon: /etc/hostname\n',
    want: { path: 'icon', line: 7, column: 7, severity: 'error', message: /relative to the manifest folder/ },
  },
  {
    name: 'icon escaping the folder',
    extra: 'icon: ../src/parse.ts\n',
    want: { path: 'icon', line: 7, column: 7, severity: 'error', message: /outside the manifest folder/ },
  },
  {
    name: 'icon is a folder',
    extra: 'icon: assets\n',
    want: { path: 'icon', line: 7, column: 7, severity: 'error', message: /is not a file/ },
  },
  {
    name: 'icon is not an image',
    extra: 'icon: assets/fake.png\n',
    want: { path: 'icon', line: 7, column: 7, severity: 'error', message: /PNG, JPEG, SVG or WebP/ },
  },
  {
    name: 'preview not 2:1 warns',
    extra: 'previewImages:\n  - assets/wide.png\n  - assets/square.png\n',
    want: { path: 'previewImages[1]', line: 9, column: 5, severity: 'warning', message: /3x3.*1600x800/ },
  },
  {
    name: 'GIF preview',
    extra: 'previewImages: [assets/anim.gif]\n',
    want: {
      path: 'previewImages[0]',
      line: 7,
      column: 17,
      severity: 'error',
      message: /is a GIF image; use PNG or JPEG/,
    },
  },
  {
    name: 'preview that is not an image',
    extra: 'previewImages: [assets/fake.png]\n',
    want: {
      path: 'previewImages[0]',
      line: 7,
      column: 17,
      severity: 'error',
      message: /readable PNG or JPEG/,
    },
  },
  {
    name: 'missing script',
    extra: 'script: src/index.ts\n',
    want: { path: 'script', line: 7, column: 9, severity: 'error', message: /not found/ },
  },
];

describe('file checks (with dir)', () => {
  it.each(cases)('$name', ({ extra, want }) => {
    const result = parseManifest(BASE + extra, { dir: FIXTURES });
    if (want === 'ok') {
      expect(result).toMatchObject({ ok: true, warnings: [] });
      return;
    }
    const issues = want.severity === 'error' ? (result.ok ? [] : result.errors) : result.warnings;
    expect(result.ok).toBe(want.severity === 'warning');
    const found = issues.find((i) => i.path === want.path);
    expect(found, JSON.stringify(issues)).toMatchObject({
      line: want.line,
      column: want.column,
      severity: want.severity,
    });
    expect(found?.message).toMatch(want.message);
  });

  it('skips file checks without dir', () => {
    expect(parseManifest(`${BASE}icon: nope.png\nscript: nope.ts\n`).ok).toBe(true);
  });

  it('refuses a symlink that leads outside the folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'manifest-'));
    const outside = mkdtempSync(join(tmpdir(), 'outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'x');
    mkdirSync(join(dir, 'assets'));
    symlinkSync(join(outside, 'secret.txt'), join(dir, 'assets', 'icon.png'));
    const result = parseManifest(`${BASE}icon: assets/icon.png\n`, { dir });
    expect(!result.ok && result.errors[0]).toMatchObject({
      path: 'icon',
      message: expect.stringMatching(/links outside/),
    });
  });
});
