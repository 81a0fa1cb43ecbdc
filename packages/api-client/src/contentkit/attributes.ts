import { z } from 'zod';
import { ICONS } from './icons';

/*
 * Attribute schemas element files share: actions, state bindings, icons, URLs and confirmations.
 * The elements themselves are declared one per file in ./elements/.
 */

/** Actions the platform handles itself (they never reach the integration), with what they do. */
export const BUILTIN_ACTIONS = {
  '@ui.url.open': 'opens `url` (http or https) in a new tab',
  '@ui.modal.open': 'opens the component `componentId` (with `props`) in a modal',
  '@ui.modal.close': 'closes the current modal; `returnValue` is sent to the opener as this action',
  '@editor.node.updateProps': "replaces the block's props with `props` (editable blocks only)",
  '@webframe.ready': 'sent by a webframe when it can receive state',
  '@webframe.resize': 'sent by a webframe to change its `size` (`height`, `aspectRatio`, `maxHeight`)',
  '@link.unfurl': 'sent to a `urlUnfurl` block with the pasted `url` when the editor creates it',
} as const;

function builtinProblem(value: Record<string, unknown>): { key: string; message: string } | undefined {
  const name = String(value.action);
  switch (name) {
    case '@ui.url.open':
      return typeof value.url === 'string' && /^https?:\/\//.test(value.url)
        ? undefined
        : { key: 'url', message: `${name} needs an http(s) \`url\`` };
    case '@ui.modal.open':
      return typeof value.componentId === 'string' && value.componentId !== ''
        ? undefined
        : { key: 'componentId', message: `${name} needs a \`componentId\`` };
    case '@editor.node.updateProps':
      return typeof value.props === 'object' && value.props !== null
        ? undefined
        : { key: 'props', message: `${name} needs a \`props\` object` };
    case '@link.unfurl':
      return typeof value.url === 'string' ? undefined : { key: 'url', message: `${name} needs a \`url\`` };
    case '@ui.modal.close':
    case '@webframe.ready':
    case '@webframe.resize':
      return undefined;
    default:
      return {
        key: 'action',
        message: `unknown built-in action ${name}; built-in actions are ${Object.keys(BUILTIN_ACTIONS).join(', ')}`,
      };
  }
}

/** An action: dispatched to the component's `action` handler or, for `@…` names, handled by the platform. */
export const ActionSchema = z
  .object(
    { action: z.string().min(1).describe('the action name; names starting with `@` are built-in') },
    { error: 'expected an action ({ "action": "name", ...payload })' },
  )
  .catchall(z.unknown())
  .superRefine((value, ctx) => {
    if (!value.action.startsWith('@')) return;
    const problem = builtinProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', path: [problem.key], message: problem.message });
  });

/** `{ "$state": "key" }`: a value bound to the component's state without a round trip. */
export const DynamicBindingSchema = z.object({ $state: z.string().min(1) }).strict();

/** One of {@link ICONS}. */
export const IconSchema = z.enum(ICONS);

export const stateKey = z.string().min(1).describe('the state key the value is bound to');
export const url = z.string().regex(/^https?:\/\//, 'expected an http(s) URL');
export const urlObject = z.object({ url }).strict();

/** A confirmation dialog shown before an action or a change. */
export const ConfirmSchema = z
  .object({
    title: z.string().describe('title of the dialog'),
    text: z.string().describe('what will happen'),
    confirm: z.string().describe('label of the confirming button'),
    style: z.enum(['primary', 'danger']).optional().describe('style of the confirming button'),
  })
  .strict();

/** `label` of a form control bound to a state key. */
export const label = z.string().optional().describe('visible label');

/** `confirm` of a form control: a dialog shown before its value changes. */
export const confirmChange = ConfirmSchema.optional().describe('asks before changing');

/** `disabled` of a form control. */
export const disabled = z
  .boolean()
  .optional()
  .describe('when true the control is shown but cannot be changed');

/** `onValueChange` of a form control. */
export const onValueChange = ActionSchema.optional().describe(
  'dispatched after the value changes (and the state with it); its `{ $state }` bindings read the new state',
);

/**
 * A URL given in parts, resolved by the renderer: `{ host, pathname, query? }`, query values may be
 * bound to state. The scheme is `https`, or `http` for a loopback host (localhost, 127.0.0.0/8, ::1).
 */
export const UrlPartsSchema = z
  .object({
    host: z
      .string()
      .regex(/^[^/\s?#@]+$/, 'expected a host name, with an optional :port (no scheme, path or credentials)')
      .describe('host name, with an optional `:port`'),
    pathname: z
      .string()
      .regex(/^\//, 'expected a path starting with `/`')
      .describe('path, starting with `/`'),
    query: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean(), DynamicBindingSchema]))
      .optional()
      .describe('query parameters; a `{ $state }` value is read from the state when the URL is used'),
  })
  .strict()
  .describe(
    'A URL in parts: `https://<host><pathname>?<query>` (`http` when the host is loopback: `localhost`, `127.x.x.x`, `[::1]`), query values bound to state read when the URL is used.',
  );
