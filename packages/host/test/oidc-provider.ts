import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** A real OpenID Connect provider (the `oidc-provider` package) on loopback, for the visitor-auth tests. */
export interface TestOidcProvider {
  /** The issuer URL (`http://127.0.0.1:<port>`). */
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  clientId: string;
  clientSecret: string;
  /** Registers the client: its redirect URI is known only once the installation exists. */
  register(redirectUri: string): void;
  close(): Promise<void>;
}

/**
 * Starts an OpenID Connect provider on 127.0.0.1 (port 0) with its development sign-in pages (any login,
 * any password), one confidential client, and accounts whose claims are `sub` = the login,
 * `email` = `<login>@example.com`, `name` = `Visitor <login>`. The client is registered by
 * {@link TestOidcProvider.register}; until then every request answers 503.
 *
 * @example
 * const idp = await startOidcProvider();
 * idp.register(`${publicEndpoint}/visitor-auth/response`);
 */
export async function startOidcProvider(): Promise<TestOidcProvider> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = createServer((req, res) => {
    if (handler) handler(req, res);
    else res.writeHead(503).end('not ready');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'site-docs';
  const clientSecret = 'test-client-secret-0123456789abcdef';
  return {
    issuer,
    authorizationEndpoint: `${issuer}/auth`,
    tokenEndpoint: `${issuer}/token`,
    clientId,
    clientSecret,
    register(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        // The ID token carries the scopes' claims (the example reads them from it, not from userinfo).
        conformIdTokenClaims: false,
        cookies: { keys: ['test-cookie-key-0123456789'] },
        ttl: {
          Session: 3600,
          Grant: 3600,
          Interaction: 600,
          AccessToken: 600,
          IdToken: 600,
          AuthorizationCode: 60,
        },
        async findAccount(_ctx, id) {
          return {
            accountId: id,
            async claims() {
              return { sub: id, email: `${id}@example.com`, email_verified: true, name: `Visitor ${id}` };
            },
          };
        },
      });
      provider.on('server_error', (_ctx, error) => console.error('oidc-provider:', error));
      handler = provider.callback() as (req: IncomingMessage, res: ServerResponse) => void;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
