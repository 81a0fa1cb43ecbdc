import { OAuth2Server } from 'oauth2-mock-server';

/** A token response the provider is about to send (its status and body can be changed). */
export interface ProviderResponse {
  statusCode: number;
  body: Record<string, unknown>;
}

/**
 * A real OAuth 2 provider (oauth2-mock-server) on 127.0.0.1 with an RS256 key, its issuer at
 * `provider.issuer.url`; `beforeResponse` sees (and may change) each token response and its request.
 * Stop it with `provider.stop()`.
 *
 * @example
 * const issued: string[] = [];
 * const provider = await startOAuthProvider((response) => issued.push(String(response.body.access_token)));
 */
export async function startOAuthProvider(
  beforeResponse?: (response: ProviderResponse, request: { body: Record<string, string> }) => void,
): Promise<OAuth2Server> {
  const provider = new OAuth2Server();
  await provider.issuer.keys.generate('RS256');
  await provider.start(0, '127.0.0.1');
  if (beforeResponse) provider.service.on('beforeResponse', beforeResponse);
  return provider;
}
