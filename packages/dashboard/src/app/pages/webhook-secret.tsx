/** @jsxImportSource preact */
import { useState } from 'preact/hooks';
import { type ApiCall, api, describeError, type WebhookSecretAnswer } from '../api';
import { useAction } from '../controls';
import { ErrorNotice } from '../ui';
import { CopyAndRotate } from './confirm-rotate';

/**
 * The signing secret of a webhook installation: hidden until revealed, copy, rotate
 * (the previous secret keeps signing for 24 hours). `client`: how it calls the API (default: the
 * dashboard's; the subscriber portal passes its session's).
 *
 * @example
 * <WebhookSecret installationId="inst_1" client={portalApi} />
 */
export function WebhookSecret({
  installationId,
  client = api,
}: {
  installationId: string;
  client?: ApiCall;
}) {
  const [secret, setSecret] = useState<WebhookSecretAnswer | null>(null);
  const [note, setNote] = useState('');
  const { error, setError, run } = useAction();
  const params = { id: installationId };

  const reveal = async () => {
    await run(async () => setSecret(await client('GET /v1/installations/{id}/webhook-secret', { params })));
  };
  const copy = async () => {
    try {
      const value =
        secret?.secret ?? (await client('GET /v1/installations/{id}/webhook-secret', { params })).secret;
      await navigator.clipboard.writeText(value);
      setNote('Secret copied to the clipboard.');
    } catch (e) {
      setNote('');
      setError(`Copying failed: ${describeError(e)}. Reveal the secret and copy it by hand.`);
    }
  };
  const rotate = async () => {
    await run(async () => {
      const rotated = await client('POST /v1/installations/{id}/webhook-secret/rotate', { params });
      setSecret(
        await client('GET /v1/installations/{id}/webhook-secret', { params }).catch(() => ({
          secret: rotated.secret,
        })),
      );
      setNote(
        `New secret in use. Deliveries are also signed with the previous secret until ${new Date(rotated.previousExpiresAt).toLocaleString()}: update your receiver before then.`,
      );
    });
  };

  return (
    <section class="card" aria-labelledby="secret-title">
      <h2 id="secret-title">Signing secret</h2>
      <p class="muted">
        Every delivery carries <code>X-Platform-Signature: t=…,v1=…</code>, an HMAC-SHA256 keyed with this
        secret. Verify it with <code>@platform/webhooks</code>.
      </p>
      <div class="secret-row">
        <code class="secret" data-testid="webhook-secret">
          {secret ? secret.secret : 'whsec_' + '•'.repeat(24)}
        </code>
        {secret ? (
          <button type="button" class="btn btn-secondary" onClick={() => setSecret(null)}>
            Hide
          </button>
        ) : (
          <button type="button" class="btn btn-secondary" onClick={() => void reveal()}>
            Reveal
          </button>
        )}
        <CopyAndRotate
          onCopy={() => void copy()}
          label="Rotate…"
          question="Rotate? The old secret stays valid for 24 hours."
          onConfirm={() => void rotate()}
        />
      </div>
      {secret?.standardWebhooks ? (
        <p class="muted">
          Standard Webhooks spelling (for <code>new Webhook(secret)</code> of standardwebhooks or svix, scheme{' '}
          <code>standard-webhooks</code>):{' '}
          <code class="secret" data-testid="webhook-secret-standard">
            {secret.standardWebhooks.secret}
          </code>
        </p>
      ) : null}
      {secret?.previous?.length ? (
        <p class="muted">The previous secret also signs deliveries until its 24 hours are over.</p>
      ) : null}
      <p role="status" class="muted">
        {note}
      </p>
      <ErrorNotice message={error} />
    </section>
  );
}
