import type { z } from 'zod';
import { RenderOutputSchema } from './schema';
import type { ContentKitRenderOutput } from './types';

/** One problem of a render output: where (`element.children[2].onPress`) and what. */
export interface ContentKitProblem {
  path: string;
  message: string;
}

/** `element.children[2].onPress` from a zod path. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out || '(root)';
}

function problemsOf(error: z.ZodError): ContentKitProblem[] {
  const seen = new Set<string>();
  const out: ContentKitProblem[] = [];
  for (const issue of error.issues) {
    const problem = { path: formatPath(issue.path), message: issue.message };
    const key = `${problem.path}\u0000${problem.message}`;
    if (!seen.has(key)) out.push(problem);
    seen.add(key);
  }
  return out;
}

/**
 * Validates a component's render answer (`{ element, state, props?, cache? }`) against the
 * ContentKit schema. Problems name the element path, e.g.
 * `element.children[2].onPress: expected an action ({ "action": "name", ...payload })`.
 *
 * @example
 * const result = validateRenderOutput(await response.json());
 * if (!result.ok) throw new Error(result.problems.map((p) => `${p.path}: ${p.message}`).join('; '));
 */
export function validateRenderOutput(
  value: unknown,
): { ok: true; output: ContentKitRenderOutput } | { ok: false; problems: ContentKitProblem[] } {
  const result = RenderOutputSchema.safeParse(value);
  if (result.success) return { ok: true, output: result.data };
  return { ok: false, problems: problemsOf(result.error) };
}
