// The part of `oidc-provider` (which ships no types) the visitor-auth tests use.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface ClientMetadata {
    client_id: string;
    client_secret: string;
    redirect_uris: string[];
    grant_types: string[];
    response_types: string[];
  }
  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }
  interface Configuration {
    clients: ClientMetadata[];
    claims: Record<string, string[]>;
    conformIdTokenClaims: boolean;
    cookies: { keys: string[] };
    ttl: Record<string, number>;
    findAccount(ctx: unknown, id: string): Promise<Account>;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    on(event: 'server_error', listener: (ctx: unknown, error: Error) => void): this;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
