import { type ContentKitProblem, validateRenderOutput } from '@platform/api-client/contentkit-schema';
import { HttpError } from '../errors.js';

/** How many problems an `invalid_render_output` message lists (all are in `details`). */
const LISTED_PROBLEMS = 5;

/**
 * Checks a component's render answer against the ContentKit schema (docs/contentkit.md).
 * A 200 answer must be `{ element, state, props?, cache? }` with a valid element tree; anything
 * else is the integration's bug, answered 502 `invalid_render_output` naming the element path
 * (`element.children[2].onPress: expected an action ...`). Error answers (4xx/5xx, e.g. an
 * `ExposableError`) pass through unchanged so their message reaches the user.
 *
 * @example
 * const { body, maxAge } = await checkRenderAnswer(outcome.response);
 */
export async function checkRenderAnswer(
  response: Response,
): Promise<{ status: number; body: unknown; maxAge?: number }> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(
      502,
      'invalid_render_output',
      `The integration answered a render with HTTP ${response.status} and a body that is not JSON; a component must return ContentKit.`,
    );
  }
  if (response.status !== 200) return { status: response.status, body };
  const result = validateRenderOutput(body);
  if (!result.ok) throw invalidOutput(result.problems);
  const maxAge = result.output.cache?.maxAge;
  return { status: 200, body: result.output, ...(maxAge ? { maxAge } : {}) };
}

function invalidOutput(problems: ContentKitProblem[]): HttpError {
  const listed = problems.slice(0, LISTED_PROBLEMS).map((p) => `${p.path}: ${p.message}`);
  const more = problems.length > LISTED_PROBLEMS ? ` (and ${problems.length - LISTED_PROBLEMS} more)` : '';
  return new HttpError(
    502,
    'invalid_render_output',
    `The component rendered invalid ContentKit: ${listed.join('; ')}${more}. See docs/contentkit.md.`,
    { problems },
  );
}
