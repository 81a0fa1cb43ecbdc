import { ApiError } from '../errors';

/** Where the calls the host serves, and those it does not, are listed. */
export const SERVED_CALLS_DOC = 'docs/host-api-from-integrations.md';

/**
 * A method the host does not serve: it always rejects with {@link notServed}'s error.
 * @example const call: NotServed = () => Promise.reject(notServed('urls.getContentByUrl', 'why'));
 */
export type NotServed = (...args: unknown[]) => Promise<never>;

/**
 * The error of a call the host does not serve (status 501, code `not_served`): names the call, why,
 * and where the served calls are listed. Never a crash of the caller's code.
 *
 * @example
 * throw notServed('spaces.importGitRepository', 'this host does not sync Git repositories');
 */
export function notServed(call: string, why: string): ApiError {
  return new ApiError(
    501,
    'not_served',
    `api.${call} is not served by this host: ${why} (the calls it serves: ${SERVED_CALLS_DOC})`,
    { call },
  );
}

/**
 * A group of methods (`api.spaces`, ...) that answers every method it does not define with a rejected
 * {@link notServed} promise instead of `undefined` (which would crash as "is not a function").
 *
 * @example
 * const spaces = withUnserved('spaces', { getSpaceById: async (id: string) => ({ data: { id } }) });
 * await spaces.getSpaceById('sp'); // served
 */
export function withUnserved<T extends object>(group: string, methods: T): T {
  return new Proxy(methods, {
    get(target, property, receiver) {
      if (typeof property !== 'string' || Reflect.has(target, property) || property === 'then') {
        return Reflect.get(target, property, receiver);
      }
      return () => Promise.reject(notServed(`${group}.${property}`, 'the host has no such call'));
    },
  });
}
