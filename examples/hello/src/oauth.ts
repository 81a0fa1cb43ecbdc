import { createOAuthHandler } from '@platform/runtime';

/**
 * `GET {publicEndpoint}/oauth`: the OAuth flow started by the `connect` button.
 * Provider URLs come from secrets so the same code runs against any provider
 * (a real integration would usually hard-code them).
 *
 * @example fetch: (request, context) => oauth(request, context)
 */
export const oauth = createOAuthHandler((context) => {
  const { secrets } = context.environment;
  return {
    clientId: secrets.CLIENT_ID ?? '',
    clientSecret: secrets.CLIENT_SECRET ?? '',
    authorizeURL: secrets.OAUTH_AUTHORIZE_URL ?? 'https://provider.example/oauth/authorize',
    accessTokenURL: secrets.OAUTH_TOKEN_URL ?? 'https://provider.example/oauth/token',
    scopes: ['profile', 'messages:write'],
    prompt: 'consent',
  };
});
