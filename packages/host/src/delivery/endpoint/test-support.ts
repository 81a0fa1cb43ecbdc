import { OAuth2Server } from 'oauth2-mock-server';

/** The answer a token request is about to get (change it to refuse), as oauth2-mock-server hands it over. */
export interface TokenResponse {
  body: Record<string, unknown>;
  statusCode: number;
}

/** The token request being answered. */
export interface TokenRequest {
  body: Record<string, string>;
  headers: Record<string, string>;
}

/**
 * A real OAuth2 server on 127.0.0.1 (oauth2-mock-server, RS256 key) for the tests of OAuth2 client
 * credentials: `onToken` sees each token request and its answer before it is sent, to record it or change it.
 *
 * @example
 * const server = await startOAuthServer((response) => { response.body.expires_in = 60; });
 * const tokenUrl = `${server.issuer.url}/token`; // ... await server.stop();
 */
export async function startOAuthServer(
  onToken: (response: TokenResponse, request: TokenRequest) => void,
): Promise<OAuth2Server> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  server.service.on('beforeResponse', onToken);
  return server;
}
