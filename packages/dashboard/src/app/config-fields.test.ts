import { describe, expect, it } from 'vitest';
import {
  configFields,
  configurationComponentOf,
  initialValues,
  isConnected,
  placeOf,
  toPatch,
} from './config-fields';
import { filterItems, type InsertItem } from './insert-menu';
import { parseRoute } from './router';
import { scopeInWords } from './scopes';

const manifest = {
  configurations: {
    account: {
      properties: {
        greeting: { type: 'string', title: 'Greeting', description: 'd', default: 'Hello' },
        channel: { type: 'string', title: 'Channel', description: 'd', completion_url: '/channels' },
        tone: {
          type: 'string',
          title: 'Tone',
          description: 'd',
          enum: ['friendly', 'formal'],
          default: 'friendly',
        },
        max: { type: 'number', title: 'Max', description: 'd', default: 3 },
        enabled: { type: 'boolean', title: 'Enabled', description: 'd', default: true },
        connect: {
          type: 'button',
          title: 'Provider',
          description: 'd',
          button_text: 'Connect',
          callback_url: '/oauth',
        },
      },
      required: ['channel'],
    },
    site: { properties: { url: { type: 'string', title: 'URL', description: 'd' } }, required: ['url'] },
  },
};

describe('configFields', () => {
  it('maps every property type to its control, in order, with required marks', () => {
    const fields = configFields(manifest, 'space');
    expect(fields.map((f) => [f.key, f.kind, f.required])).toEqual([
      ['greeting', 'text', false],
      ['channel', 'completion', true],
      ['tone', 'select', false],
      ['max', 'number', false],
      ['enabled', 'switch', false],
      ['connect', 'oauth', false],
    ]);
    expect(fields[5]).toMatchObject({ buttonText: 'Connect', callbackUrl: '/oauth' });
  });

  it('uses `site` for site installations and `account` for spaces and the organization', () => {
    expect(configFields(manifest, 'site').map((f) => f.key)).toEqual(['url']);
    expect(placeOf('organization')).toBe('account');
    expect(configFields({}, 'space')).toEqual([]);
  });

  it('shows a site installation the `space` settings of a manifest declaring no `site` ones', () => {
    const spaceOnly = {
      configurations: {
        space: {
          properties: { website_id: { type: 'string', title: 'Website', description: '' } },
          required: ['website_id'],
        },
      },
    };
    expect(placeOf('site', spaceOnly)).toBe('space');
    expect(configFields(spaceOnly, 'site').map((f) => [f.key, f.required])).toEqual([['website_id', true]]);
    expect(configFields(spaceOnly, 'space')).toEqual([]);
    expect(placeOf('site', manifest)).toBe('site');
  });

  it('starts from the saved configuration, then defaults; saves empties as null and never the button', () => {
    const fields = configFields(manifest, 'space');
    const values = initialValues(fields, { channel: 'docs', max: 5 });
    expect(values).toEqual({ greeting: 'Hello', channel: 'docs', tone: 'friendly', max: 5, enabled: true });
    expect(toPatch(fields, { ...values, greeting: '' })).toEqual({
      greeting: null,
      channel: 'docs',
      tone: 'friendly',
      max: 5,
      enabled: true,
    });
    expect(isConnected({ oauth_credentials: { access_token: 't' } })).toBe(true);
    expect(isConnected({})).toBe(false);
  });
});

describe('small pure helpers', () => {
  it('filters insert items by every word typed', () => {
    const items: InsertItem[] = [
      {
        installationId: 'a',
        integrationTitle: 'Hello',
        blockId: 'counter',
        title: 'Counter',
        description: 'Counts presses',
      },
      {
        installationId: 'b',
        integrationTitle: 'Charts',
        blockId: 'chart',
        title: 'Chart',
        description: 'A bar chart',
      },
    ];
    expect(filterItems(items, 'coun').map((i) => i.blockId)).toEqual(['counter']);
    expect(filterItems(items, 'bar chart').map((i) => i.blockId)).toEqual(['chart']);
    expect(filterItems(items, '')).toHaveLength(2);
    expect(filterItems(items, 'zzz')).toEqual([]);
  });

  it('parses routes and describes scopes in words', () => {
    expect(parseRoute('/')).toEqual({ page: 'integrations' });
    expect(parseRoute('/installations/inst_1')).toEqual({ page: 'installation', id: 'inst_1' });
    expect(parseRoute('/spaces/my%20space')).toEqual({ page: 'editor', spaceId: 'my space' });
    expect(parseRoute('/status')).toEqual({ page: 'status' });
    expect(parseRoute('/nope/x/y').page).toBe('not-found');
    expect(scopeInWords('site:views:read')).toContain('visitor data');
    expect(scopeInWords('custom:scope')).toBe('custom:scope');
    expect(scopeInWords('space:views:read')).toBe(scopeInWords('site:views:read'));
  });
});

describe('configurationComponentOf', () => {
  it('names the component of the place the target installs in, if any', () => {
    const withComponent = {
      configurations: { account: { componentId: 'config' }, site: { properties: {} } },
    };
    expect(configurationComponentOf(withComponent, 'organization')).toBe('config');
    // This dashboard keeps space settings in the `account` place (placeOf).
    expect(configurationComponentOf(withComponent, 'space')).toBe('config');
    expect(configurationComponentOf(withComponent, 'site')).toBeUndefined();
    expect(configurationComponentOf({}, 'site')).toBeUndefined();
  });
});
