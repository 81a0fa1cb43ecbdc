import { parseManifest } from '@platform/manifest';
import { describe, expect, it } from 'vitest';
import { sdkSpecs } from '../scaffold/sdk.js';
import { manifestTemplate, packageTemplate } from '../scaffold/templates.js';
import { answersFromFlags, required, slugify, validateName } from './new.js';

describe('platform new answers', () => {
  it('defaults from the folder name and validates flags', () => {
    expect(answersFromFlags({ install: true }, 'acme-sync')).toEqual({
      name: 'acme-sync',
      title: 'Acme Sync',
      description: 'Acme Sync integration.',
      organization: 'my-org',
      scopes: ['space:content:read'],
      visibility: 'private',
    });
    expect(() => answersFromFlags({ install: true, name: 'Bad Name' }, undefined)).toThrow(
      /--name must be a lowercase slug/,
    );
    expect(() =>
      answersFromFlags({ install: true, scopes: 'space:content:read,space:everything' }, 'x'),
    ).toThrow(/unknown scope space:everything/);
    expect(() => answersFromFlags({ install: true, visibility: 'secret' }, 'x')).toThrow(
      /--visibility must be one of/,
    );
  });

  it('writes a manifest that validates, with titles that need quoting', () => {
    const answers = {
      ...answersFromFlags({ install: true, scopes: 'space:content:read,site:views:read' }, 'x'),
      title: 'Notes: "quoted" # not a comment',
    };
    const parsed = parseManifest(manifestTemplate(answers));
    expect(parsed.ok).toBe(true);
    if (parsed.ok)
      expect(parsed.manifest).toMatchObject({
        title: answers.title,
        scopes: ['space:content:read', 'site:views:read'],
      });
  });

  it('pins the SDK as file: links from this monorepo, else the CLI version', () => {
    const specs = sdkSpecs('/tmp/somewhere/new-integration');
    expect(specs.runtime).toMatch(/^file:(\.\.\/)+.*packages\/runtime$/);
    expect(sdkSpecs('/tmp/x', '/nonexistent/cli')).toEqual({
      runtime: '0.1.0',
      apiClient: '0.1.0',
      cli: '0.1.0',
    });
    expect(
      JSON.parse(packageTemplate(answersFromFlags({ install: true }, 'x'), specs)).dependencies[
        '@platform/runtime'
      ],
    ).toBe(specs.runtime);
  });

  it('derives the name from the folder as a slug; validates prompt answers', () => {
    expect(answersFromFlags({ install: true }, 'Hello_World').name).toBe('hello-world');
    expect(answersFromFlags({ install: true }, 'Hello_World').title).toBe('Hello World');
    expect(answersFromFlags({ install: true }, '__').name).toBe('my-integration');
    expect(slugify('  Café Sync 2.0 ')).toBe('cafe-sync-2-0');
    expect(validateName('')).toBeUndefined(); // Enter takes the placeholder
    expect(validateName('hello-world')).toBeUndefined();
    expect(validateName('Hello World')).toBe(
      'lowercase letters, digits and single hyphens, e.g. hello-world',
    );
    expect(required('organization')('')).toBe('the organization is required');
    expect(required('organization')('   ')).toBe('the organization is required');
    expect(required('organization')('acme')).toBeUndefined();
  });
});
