/** @jsxImportSource preact */
import { useState } from 'preact/hooks';
import { type ApiCall, api, describeError, type Installation } from '../api';
import { useAction } from '../controls';
import { ErrorNotice, useLoad } from '../ui';
import { CopyAndRotate } from './confirm-rotate';

/** What each signature scheme puts on a delivery, and what a receiver verifies it with. */
const SCHEMES: Record<string, { headers: string; verify: string }> = {
  platform: {
    headers: 'X-Platform-Signature: t=…,v1=<hex HMAC-SHA256>',
    verify: 'the signing secret below, with @platform/webhooks or docs/receivers.md',
  },
  'standard-webhooks': {
    headers: 'webhook-id, webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256>',
    verify:
      'any Standard Webhooks library (standardwebhooks, svix) given the secret in its Standard Webhooks spelling (Reveal shows it)',
  },
  ed25519: {
    headers: 'webhook-id, webhook-timestamp, webhook-signature: v1a,<base64 ed25519>',
    verify: 'the public key below: the receiver holds no shared secret',
  },
};

/**
 * How a webhook installation signs its deliveries (its saved `signature_scheme`, chosen in the
 * configuration above with the host's inline validation), what each delivery carries, and, for `ed25519`,
 * the public key with a copy button. `client`: how it calls the API (default: the dashboard's).
 *
 * @example
 * <WebhookSigning installation={inst} />
 */
export function WebhookSigning({
  installation,
  client = api,
}: {
  installation: Installation;
  client?: ApiCall;
}) {
  const scheme =
    typeof installation.configuration.signature_scheme === 'string'
      ? installation.configuration.signature_scheme
      : 'platform';
  const both = scheme !== 'platform' && installation.configuration.signature_both_headers === true;
  const about = SCHEMES[scheme] ?? SCHEMES.platform;
  const [note, setNote] = useState('');
  const rotation = useAction();
  const key = useLoad(
    async () =>
      scheme === 'ed25519'
        ? client('GET /v1/installations/{id}/webhook-public-key', { params: { id: installation.id } })
        : null,
    [installation.id, scheme, installation.updatedAt],
  );
  const rotate = async () => {
    await rotation.run(async () => {
      const rotated = await client('POST /v1/installations/{id}/webhook-public-key/rotate', {
        params: { id: installation.id },
      });
      key.set(rotated);
      setNote(
        `New key pair in use. The previous key also signs until ${new Date(rotated.previous?.expiresAt ?? Date.now()).toLocaleString()}: give receivers the new public key before then.`,
      );
    });
  };
  const copy = async (value: string) => {
    try {
      await navigator.clipboard.writeText(value);
      setNote('Public key copied to the clipboard.');
    } catch (e) {
      setNote(`Copying failed: ${describeError(e)}. Select the key and copy it by hand.`);
    }
  };
  return (
    <section class="card" aria-labelledby="signing-title">
      <h2 id="signing-title">Signature</h2>
      <p>
        Scheme <strong data-testid="signature-scheme">{scheme}</strong>
        {both ? ' — also sends X-Platform-Signature while receivers migrate' : ''}
      </p>
      <p class="muted">
        Each delivery carries <code>{about?.headers}</code>
        {both ? (
          <>
            {' '}
            and <code>X-Platform-Signature</code>
          </>
        ) : null}
        . Verify with {about?.verify}. The installation's <code>signature_scheme</code> setting chooses it.
      </p>
      {scheme === 'ed25519' ? (
        key.data ? (
          <div class="secret-row">
            <code class="secret" data-testid="webhook-public-key">
              {key.data.publicKey}
            </code>
            <CopyAndRotate
              onCopy={() => void copy(key.data?.publicKey ?? '')}
              label="Rotate key…"
              question="Rotate? The old key keeps signing for 24 hours."
              onConfirm={() => void rotate()}
            />
          </div>
        ) : key.loading ? (
          <p class="muted">Loading the public key…</p>
        ) : null
      ) : null}
      <p role="status" class="muted">
        {note}
      </p>
      {key.data?.previous ? (
        <p class="muted" data-testid="webhook-previous-public-key">
          The previous key <code class="wrap-anywhere">{key.data.previous.publicKey}</code> also signs until{' '}
          {new Date(key.data.previous.expiresAt).toLocaleString()}.
        </p>
      ) : null}
      <ErrorNotice message={key.error} onRetry={() => void key.reload()} />
      <ErrorNotice message={rotation.error} />
    </section>
  );
}
