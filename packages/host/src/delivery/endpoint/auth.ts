import { z } from 'zod';

/** No CR, LF or other control character: the value goes into a header. */
const headerSafe = (what: string, max: number) =>
  z
    .string({ error: `${what} is a string` })
    .min(1, { error: `${what} must not be empty` })
    .max(max, { error: `${what} has at most ${max} characters` })
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    .regex(/^[^\u0000-\u001f\u007f]*$/, { error: `${what} may not contain CR, LF or control characters` });

/** `auth: { type: 'basic', username, password }`: `Authorization: Basic base64(username:password)`. */
export const basicAuthSchema = z.strictObject({
  type: z.literal('basic'),
  username: headerSafe('username', 256).regex(/^[^:]*$/, { error: 'username may not contain ":"' }),
  password: headerSafe('password', 1024),
});

/** `auth: { type: 'bearer', token }`: `Authorization: Bearer <token>`. */
export const bearerAuthSchema = z.strictObject({
  type: z.literal('bearer'),
  token: headerSafe('token', 4096),
});

/**
 * `auth: { type: 'oauth2_client_credentials', token_url, client_id, client_secret, scope?, audience? }`: the
 * host fetches an access token (RFC 6749 section 4.4, client authenticated with HTTP Basic) and sends
 * `Authorization: Bearer <access_token>`.
 */
export const oauth2AuthSchema = z.strictObject({
  type: z.literal('oauth2_client_credentials'),
  token_url: z.string({ error: 'token_url is a URL' }).min(1, { error: 'token_url must not be empty' }),
  client_id: headerSafe('client_id', 256),
  client_secret: headerSafe('client_secret', 1024),
  scope: headerSafe('scope', 1024).optional(),
  audience: headerSafe('audience', 1024).optional(),
});

/** An endpoint's authentication (docs/contracts.md "Endpoint settings"). */
export const endpointAuthSchema = z.discriminatedUnion(
  'type',
  [basicAuthSchema, bearerAuthSchema, oauth2AuthSchema],
  {
    error: 'auth.type is one of basic, bearer, oauth2_client_credentials',
  },
);

/** A validated `auth` setting. */
export type EndpointAuth = z.infer<typeof endpointAuthSchema>;

/** The write-only field of each kind of `auth`. */
export const AUTH_SECRET_FIELD = {
  basic: 'password',
  bearer: 'token',
  oauth2_client_credentials: 'client_secret',
} as const satisfies Record<EndpointAuth['type'], string>;

/** The auth's secret (the write-only field's value). */
export function authSecret(auth: EndpointAuth): string {
  switch (auth.type) {
    case 'basic':
      return auth.password;
    case 'bearer':
      return auth.token;
    case 'oauth2_client_credentials':
      return auth.client_secret;
  }
}

/**
 * The `Authorization` header of a basic or bearer auth (an OAuth2 one needs a token first: undefined).
 *
 * @example
 * staticAuthorization({ type: 'basic', username: 'u', password: 'p' }); // 'Basic dTpw'
 */
export function staticAuthorization(auth: EndpointAuth): string | undefined {
  if (auth.type === 'basic')
    return `Basic ${Buffer.from(`${auth.username}:${auth.password}`, 'utf8').toString('base64')}`;
  if (auth.type === 'bearer') return `Bearer ${auth.token}`;
  return undefined;
}
