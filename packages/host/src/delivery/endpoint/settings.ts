import { z } from 'zod';
import { AUTH_SECRET_FIELD, authSecret, type EndpointAuth, endpointAuthSchema } from './auth.js';
import { filterSchema } from './filter.js';
import { customHeaderProblems } from './headers.js';

/**
 * The per-endpoint settings of a webhook installation: configuration keys the host reads itself, beside
 * the manifest's (`url` and the event switches). All optional; without them a delivery is exactly the
 * spec's (docs/contracts.md "Endpoint settings").
 */
export const ENDPOINT_KEYS = ['headers', 'auth', 'filter', 'rate_limit'] as const;
export type EndpointKey = (typeof ENDPOINT_KEYS)[number];

/** What a read shows in place of a write-only value; written back, it keeps the stored value. */
export const MASKED = '********';

/** `headers`: name → value, each checked by {@link customHeaderProblems}. */
export const customHeadersSchema = z
  .record(z.string(), z.string({ error: 'a header value is a string' }), {
    error: 'headers is an object of header name → value',
  })
  .superRefine((headers, ctx) => {
    for (const message of customHeaderProblems(headers)) ctx.addIssue({ code: 'custom', message });
  });

/** `rate_limit`: deliveries per second to this endpoint (a whole number, 1 to 10 000). */
export const rateLimitSchema = z
  .number({ error: 'rate_limit is a number of deliveries per second' })
  .int({ error: 'rate_limit is a whole number of deliveries per second' })
  .min(1, { error: 'rate_limit is at least 1 delivery per second (remove it for no limit)' })
  .max(10_000, { error: 'rate_limit is at most 10000 deliveries per second' });

/** The schema of each endpoint key. */
export const endpointSettingSchemas: Record<EndpointKey, z.ZodType> = {
  headers: customHeadersSchema,
  auth: endpointAuthSchema,
  filter: filterSchema,
  rate_limit: rateLimitSchema,
};

/** A configuration problem, keyed by its top-level configuration key (as the manifest's are). */
export interface SettingProblem {
  key: string;
  message: string;
}

function pathText(key: string, path: ReadonlyArray<PropertyKey>): string {
  let out = key;
  for (const segment of path) out += typeof segment === 'number' ? `[${segment}]` : `.${String(segment)}`;
  return out;
}

/**
 * The problems of the endpoint settings in `configuration` (absent or null keys are fine), each message
 * naming the path of the wrong value.
 *
 * @example
 * endpointSettingProblems({ headers: { Host: 'x' } }); // [{ key: 'headers', message: 'headers: header "Host": ...' }]
 */
export function endpointSettingProblems(configuration: Readonly<Record<string, unknown>>): SettingProblem[] {
  const problems: SettingProblem[] = [];
  for (const key of ENDPOINT_KEYS) {
    const value = configuration[key];
    if (value === undefined || value === null) continue;
    const parsed = endpointSettingSchemas[key].safeParse(value);
    if (parsed.success) continue;
    for (const issue of parsed.error.issues)
      problems.push({ key, message: `${pathText(key, issue.path)}: ${issue.message}` });
  }
  const auth = configuration.auth;
  const headers = configuration.headers;
  if (auth && typeof headers === 'object' && headers !== null) {
    const named = Object.keys(headers).find((name) => name.toLowerCase() === 'authorization');
    if (named)
      problems.push({
        key: 'headers',
        message: `headers: header "${named}": set either an Authorization header or auth, not both`,
      });
  }
  return problems;
}

/**
 * The write-only values of an endpoint, kept apart from the configuration (the `webhook_credentials`
 * table, storage's `webhookCredentials`): the custom headers' values and the auth's secret. The
 * configuration holds {@link MASKED} in their place.
 */
export interface EndpointCredentials {
  headers?: Record<string, string>;
  /** The `auth`'s password, token or client secret ({@link AUTH_SECRET_FIELD}). */
  auth?: string;
}

/** The result of {@link separateCredentials}. */
export interface SeparatedSettings {
  /** What is stored as the configuration: write-only values masked. */
  configuration: Record<string, unknown>;
  /** What is stored in the credentials table (null: none). */
  credentials: EndpointCredentials | null;
  problems: SettingProblem[];
}

/**
 * Splits a configuration about to be stored into what reads may show and the write-only values. A value
 * written as {@link MASKED} keeps the one stored (`before`: the configuration and credentials stored now);
 * masked with nothing stored under that header name (or that kind of auth), it is a problem.
 *
 * @example
 * const { configuration, credentials } = separateCredentials({ url, headers: { 'X-Api-Key': 'k1' } }, null);
 * // configuration.headers['X-Api-Key'] === MASKED; credentials.headers['X-Api-Key'] === 'k1'
 */
export function separateCredentials(
  next: Readonly<Record<string, unknown>>,
  before: {
    configuration: Readonly<Record<string, unknown>>;
    credentials: EndpointCredentials | null;
  } | null,
): SeparatedSettings {
  const configuration: Record<string, unknown> = { ...next };
  const credentials: EndpointCredentials = {};
  const problems: SettingProblem[] = [];
  const headers = customHeadersSchema.safeParse(next.headers);
  if (next.headers !== undefined && next.headers !== null && headers.success) {
    const masked: Record<string, string> = {};
    const values: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers.data)) {
      masked[name] = MASKED;
      if (value !== MASKED) values[name] = value;
      else if (before?.credentials?.headers?.[name] !== undefined)
        values[name] = before.credentials.headers[name];
      else
        problems.push({
          key: 'headers',
          message: `headers.${name}: "${MASKED}" stands for a stored value, and none is stored; give the value`,
        });
    }
    configuration.headers = masked;
    credentials.headers = values;
  }
  const auth = endpointAuthSchema.safeParse(next.auth);
  if (next.auth !== undefined && next.auth !== null && auth.success) {
    const field = AUTH_SECRET_FIELD[auth.data.type];
    const secret = authSecret(auth.data);
    const storedType = (before?.configuration.auth as { type?: unknown } | undefined)?.type;
    if (secret !== MASKED) credentials.auth = secret;
    else if (storedType === auth.data.type && before?.credentials?.auth !== undefined)
      credentials.auth = before.credentials.auth;
    else
      problems.push({
        key: 'auth',
        message: `auth.${field}: "${MASKED}" stands for a stored value, and none is stored for this auth type; give the value`,
      });
    configuration.auth = { ...auth.data, [field]: MASKED };
  }
  const empty = credentials.headers === undefined && credentials.auth === undefined;
  return { configuration, credentials: empty ? null : credentials, problems };
}

/** The endpoint's settings with their write-only values put back, as the delivery engine uses them. */
export interface EndpointSettings {
  headers: Record<string, string>;
  auth: EndpointAuth | null;
  rateLimit: number | null;
}

/**
 * Reads the endpoint settings of a stored configuration and its credentials (what `deliveryTarget` read).
 * A setting that does not parse (stored before a rule tightened) is left out.
 *
 * @example
 * endpointSettings({ headers: { 'X-Api-Key': MASKED } }, { headers: { 'X-Api-Key': 'k1' } }).headers; // { 'X-Api-Key': 'k1' }
 */
export function endpointSettings(
  configuration: Readonly<Record<string, unknown>>,
  credentials: EndpointCredentials | null,
): EndpointSettings {
  const headers: Record<string, string> = {};
  const parsedHeaders = customHeadersSchema.safeParse(configuration.headers);
  if (parsedHeaders.success) {
    for (const name of Object.keys(parsedHeaders.data)) {
      const value = credentials?.headers?.[name];
      if (value !== undefined) headers[name] = value;
    }
  }
  let auth: EndpointAuth | null = null;
  const parsedAuth = endpointAuthSchema.safeParse(configuration.auth);
  if (parsedAuth.success && credentials?.auth !== undefined) {
    auth = {
      ...parsedAuth.data,
      [AUTH_SECRET_FIELD[parsedAuth.data.type]]: credentials.auth,
    } as EndpointAuth;
  }
  const rate = rateLimitSchema.safeParse(configuration.rate_limit);
  return { headers, auth, rateLimit: rate.success ? rate.data : null };
}
