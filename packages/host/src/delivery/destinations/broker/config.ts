import { z } from 'zod';

/** Where and as whom a broker client connects, after {@link parseEndpoint}. */
export interface BrokerEndpoint {
  host: string;
  port: number;
  username?: string;
  password?: string;
  tls: boolean;
  /** The URL's path without its leading slash (AMQP vhost, Redis db), when a URL was given. */
  path?: string;
}

const HOST = /^[A-Za-z0-9._:-]+$/;

/**
 * The connection fields every broker configuration shares: either `url` (credentials may be in it),
 * or `host` / `port` / `username` / `password` / `tls`. Credentials are never shown by `describe`.
 *
 * @example
 * const schema = z.object({ ...endpointFields, subject: z.string() });
 */
export const endpointFields = {
  url: z.string().max(2048).optional(),
  host: z
    .string()
    .min(1)
    .max(253)
    .transform((host) => host.replace(/^\[(.*)\]$/, '$1'))
    .refine((host) => HOST.test(host), 'must be a host name or an IP address, without a scheme or a path')
    .optional(),
  port: z.number().int().min(1).max(65_535).optional(),
  username: z.string().min(1).max(1024).optional(),
  password: z.string().max(1024).optional(),
  tls: z.boolean().optional(),
  /** Bound of one connection attempt (TCP, TLS and the broker's handshake), ms. */
  connectTimeoutMs: z.number().int().min(100).max(120_000).optional(),
};

type EndpointInput = {
  url?: string | undefined;
  host?: string | undefined;
  port?: number | undefined;
  username?: string | undefined;
  password?: string | undefined;
  tls?: boolean | undefined;
};

/** The URL schemes of a kind: each says whether it means TLS. */
export interface EndpointSchemes {
  schemes: Readonly<Record<string, { tls: boolean }>>;
  defaultPort: number;
  defaultTlsPort: number;
}

/**
 * Turns the endpoint fields into a {@link BrokerEndpoint}, reporting a mistake as a zod issue on the
 * field at fault (`url`, `host`). Use inside a schema's `.transform`.
 *
 * @example
 * schema.transform((input, ctx) => ({ ...input, endpoint: parseEndpoint(input, ctx, RABBITMQ_SCHEMES) }));
 */
export function parseEndpoint(
  input: EndpointInput,
  ctx: z.RefinementCtx,
  kind: EndpointSchemes,
): BrokerEndpoint {
  const fail = (path: string, message: string): BrokerEndpoint => {
    ctx.addIssue({ code: 'custom', path: [path], message });
    return { host: '', port: 0, tls: false };
  };
  const schemes = Object.keys(kind.schemes).map((scheme) => `${scheme}://`);
  if (input.url === undefined) {
    if (input.host === undefined)
      return fail('host', `give "host" (and "port"), or "url" (${schemes.join(', ')})`);
    const tls = input.tls ?? false;
    return {
      host: input.host,
      port: input.port ?? (tls ? kind.defaultTlsPort : kind.defaultPort),
      tls,
      ...(input.username === undefined ? {} : { username: input.username }),
      ...(input.password === undefined ? {} : { password: input.password }),
    };
  }
  if (input.host !== undefined || input.port !== undefined) {
    return fail('url', 'give either "url" or "host"/"port", not both');
  }
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    // Never echo the URL: it may hold a password.
    return fail('url', `must be a URL such as ${schemes[0]}host:port`);
  }
  const scheme = kind.schemes[url.protocol.slice(0, -1)];
  if (!scheme) return fail('url', `the scheme must be one of ${schemes.join(', ')}`);
  if (url.hostname === '') return fail('url', 'has no host');
  if (url.search !== '' || url.hash !== '') return fail('url', 'must not have a query or a fragment');
  if (input.tls !== undefined && input.tls !== scheme.tls) {
    return fail('tls', `contradicts the URL's scheme (${url.protocol}//)`);
  }
  const username = input.username ?? (url.username === '' ? undefined : decodeURIComponent(url.username));
  const password = input.password ?? (url.password === '' ? undefined : decodeURIComponent(url.password));
  const path = url.pathname.replace(/^\//, '');
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? (scheme.tls ? kind.defaultTlsPort : kind.defaultPort) : Number(url.port),
    tls: scheme.tls,
    ...(username === undefined ? {} : { username }),
    ...(password === undefined ? {} : { password }),
    ...(path === '' ? {} : { path: decodeURIComponent(path) }),
  };
}

/**
 * `host:port` as written in a URL (IPv6 in brackets), for descriptions: never credentials.
 *
 * @example
 * hostPort({ host: '::1', port: 5672, tls: false }); // '[::1]:5672'
 */
export function hostPort(endpoint: Pick<BrokerEndpoint, 'host' | 'port'>): string {
  const host = endpoint.host.includes(':') ? `[${endpoint.host}]` : endpoint.host;
  return `${host}:${endpoint.port}`;
}

/** Default bound of one connection attempt, ms. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
