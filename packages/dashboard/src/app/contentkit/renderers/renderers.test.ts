import { ELEMENT_SCHEMAS } from '@platform/api-client/contentkit-schema';
import type { VNode } from 'preact';
import { describe, expect, it } from 'vitest';
import { type DrawContext, RENDERERS, type Renderers } from '.';

const ctx: DrawContext = {
  busy: false,
  state: {},
  inputs: {},
  press: () => undefined,
  bound: (_key, initial) => initial,
  set: () => () => undefined,
  change: () => undefined,
  all: (nodes) => nodes.map((n) => n.type),
  draw: (node) => node.type,
  fieldId: () => 'f',
};

describe('the renderer map', () => {
  it('has a renderer for exactly the elements the registry declares', () => {
    expect(Object.keys(RENDERERS).sort()).toEqual(Object.keys(ELEMENT_SCHEMAS).sort());
  });

  it('does not compile without a renderer for every element', () => {
    const { divider: _, ...withoutDivider } = RENDERERS;
    // @ts-expect-error: `divider` is missing, so this is not a Renderers
    const incomplete: Renderers = withoutDivider;
    expect(Object.keys(incomplete)).not.toContain('divider');
  });

  it('draws an element with its own renderer', () => {
    const hr = RENDERERS.divider({ type: 'divider', size: 'large' }, 3, ctx) as VNode<{ class: string }>;
    expect(hr.type).toBe('hr');
    expect(hr.key).toBe(3);
    expect(hr.props.class).toBe('ck-divider ck-divider-large');
  });
});
