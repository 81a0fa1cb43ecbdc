/**
 * The scopes an organization token can be given, each with what it allows: the same list, in the same
 * order, as the host's `SCOPES` (`packages/host/src/access/principal.ts`; `token-scopes.test.ts` keeps
 * them equal). The dashboard takes only types from the host, so the list is repeated here.
 *
 * @example
 * TOKEN_SCOPES.find((s) => s.scope === 'audit:read')?.words; // "read the organization's audit log"
 */
export const TOKEN_SCOPES: ReadonlyArray<{ scope: string; words: string }> = [
  {
    scope: 'integrations:publish',
    words:
      "publish, update and unpublish the organization's integrations; read and rotate their install links",
  },
  { scope: 'installations:manage', words: 'install, configure, pause, resume and uninstall' },
  {
    scope: 'deliveries:read',
    words: 'read webhook deliveries, invocation logs and the runs of its integrations',
  },
  { scope: 'deliveries:redeliver', words: 'redeliver webhook deliveries and send test events' },
  { scope: 'secrets:manage', words: 'reveal and rotate webhook signing secrets' },
  { scope: 'tokens:manage', words: "create, list and revoke the organization's tokens" },
  { scope: 'portal:create', words: 'open and revoke subscriber portal sessions' },
  { scope: 'audit:read', words: "read the organization's audit log" },
];
