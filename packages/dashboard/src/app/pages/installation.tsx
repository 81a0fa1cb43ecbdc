/** @jsxImportSource preact */
import { useCallback, useState } from 'preact/hooks';
import { api, type Installation } from '../api';
import { DeliveryCharts } from '../charts/delivery-charts';
import { configFields, configurationComponentOf } from '../config-fields';
import { ConfigForm } from '../config-form';
import { LiveComponent } from '../contentkit';
import { ConfirmPrompt, useAction } from '../controls';
import { navigate } from '../router';
import { can, usePrincipal } from '../session';
import { BackToInstallations, ErrorNotice, StatusBadge, useLoad } from '../ui';
import { DeliveryLog } from './deliveries';
import { PortalLink } from './portal-link';
import { WebhookEndpoint } from './webhook-endpoint';
import { WebhookSecret } from './webhook-secret';
import { WebhookSigning } from './webhook-signing';

/** Where an installation lives, in words. */
export function placeOfInstallation(i: Installation): string {
  if (i.target === 'space') return `space ${i.space ?? ''}`;
  if (i.target === 'site') return `site ${i.site ?? ''}`;
  return `organization ${i.organization ?? ''}`.trim();
}

/** Who owns an installation, in words (the operator alone sees unowned ones). */
export function ownerOfInstallation(i: Installation): string {
  return i.owner ? `owned by ${i.owner}` : 'no owner: only the operator sees it';
}

function Actions({
  installation,
  onChange,
}: {
  installation: Installation;
  onChange(i: Installation): void;
}) {
  const [confirming, setConfirming] = useState(false);
  const { busy, error, run: runAction } = useAction();
  const run = async (what: 'pause' | 'resume' | 'uninstall') => {
    await runAction(
      async () => {
        const params = { id: installation.id };
        if (what === 'uninstall') {
          await api('DELETE /v1/installations/{id}', { params });
          navigate('/installations');
          return;
        }
        onChange(await api(`POST /v1/installations/{id}/${what}`, { params }));
      },
      () => setConfirming(false),
    );
  };
  return (
    <div class="actions">
      {installation.status === 'paused' ? (
        <button type="button" class="btn btn-secondary" disabled={busy} onClick={() => void run('resume')}>
          Resume
        </button>
      ) : (
        <button type="button" class="btn btn-secondary" disabled={busy} onClick={() => void run('pause')}>
          Pause
        </button>
      )}
      {confirming ? (
        <ConfirmPrompt
          question="Uninstall? Its queued deliveries are cancelled."
          yes="Yes, uninstall"
          busy={busy}
          onYes={() => void run('uninstall')}
          onCancel={() => setConfirming(false)}
        />
      ) : (
        <button
          type="button"
          class="btn btn-danger-outline"
          disabled={busy}
          onClick={() => setConfirming(true)}
        >
          Uninstall
        </button>
      )}
      <ErrorNotice message={error} />
    </div>
  );
}

/**
 * One installation: status, pause / resume / uninstall, the configuration screen, live previews
 * of its components and, for webhook installations, the secret and the delivery log.
 */
export function InstallationPage({ id }: { id: string }) {
  // the host renders an installation's components for the operator and its owner's `installations:manage`
  const principal = usePrincipal();
  const mayRender = can(principal, 'installations:manage');
  const installation = useLoad(() => api('GET /v1/installations/{id}', { params: { id } }), [id]);
  const integrationName = installation.data?.integration;
  const integration = useLoad(
    async () =>
      integrationName ? api('GET /v1/integrations/{name}', { params: { name: integrationName } }) : null,
    [integrationName],
  );
  const refresh = useCallback(async () => {
    try {
      const fresh = await api('GET /v1/installations/{id}', { params: { id } });
      installation.set(fresh);
      return fresh;
    } catch {
      return null;
    }
  }, [id, installation.set]);

  const inst = installation.data;
  const integ = integration.data;
  if (!inst) {
    return (
      <main id="main" class="page">
        <BackToInstallations />
        <ErrorNotice message={installation.error} onRetry={() => void installation.reload()} />
        {installation.loading ? <p class="muted">Loading the installation…</p> : null}
      </main>
    );
  }
  const fields = integ ? configFields(integ.manifest, inst.target) : [];
  const screen = integ ? configurationComponentOf(integ.manifest, inst.target) : undefined;
  const blocks =
    integ && Array.isArray(integ.manifest.blocks)
      ? (integ.manifest.blocks as Array<{ id: string; title?: string }>)
      : [];
  const isWebhook = inst.integration === 'webhook';
  return (
    <main id="main" class="page">
      <BackToInstallations />
      <header class="page-head">
        <div>
          <h1>{integ?.title ?? inst.integration}</h1>
          <p class="muted">
            Installed in {placeOfInstallation(inst)} · {ownerOfInstallation(inst)} · <code>{inst.id}</code>
          </p>
        </div>
        <div class="status-line">
          <span class="muted">Status</span> <StatusBadge status={inst.status} testId="installation-status" />
        </div>
      </header>
      <Actions installation={inst} onChange={installation.set} />
      <ErrorNotice message={integration.error} />
      <section class="card" aria-labelledby="config-title">
        <h2 id="config-title">Configuration</h2>
        <p class="muted">
          Each save is sent to the integration and checked; the installation becomes active once every
          required setting is valid.
        </p>
        {screen ? (
          !mayRender ? (
            <p class="muted">
              This integration's configuration screen needs a token with the scope{' '}
              <code>installations:manage</code>; or configure it through{' '}
              <code>PATCH /v1/installations/{'{id}'}</code>.
            </p>
          ) : inst.status === 'paused' ? (
            <p class="muted">Resume the installation to show its configuration screen.</p>
          ) : (
            <LiveComponent
              installationId={inst.id}
              componentId={screen}
              label="Configuration screen"
              context={{ type: 'configuration', editable: true }}
              onActionDone={() => void refresh()}
            />
          )
        ) : integ ? (
          <ConfigForm
            key={`${inst.id}-${integ.version}`}
            installation={inst}
            fields={fields}
            onSaved={installation.set}
            onRefresh={refresh}
          />
        ) : (
          <p class="muted">Loading the settings…</p>
        )}
      </section>
      {isWebhook ? <WebhookSigning installation={inst} /> : null}
      {isWebhook ? <WebhookSecret installationId={inst.id} /> : null}
      {isWebhook && can(principal, 'installations:manage') ? (
        <WebhookEndpoint key={inst.id} installation={inst} onSaved={installation.set} />
      ) : null}
      {isWebhook ? <PortalLink installationId={inst.id} /> : null}
      {isWebhook && can(principal, 'deliveries:read') ? <DeliveryCharts installationId={inst.id} /> : null}
      {isWebhook ? <DeliveryLog installationId={inst.id} /> : null}
      {blocks.length > 0 && mayRender ? (
        <section class="card" aria-labelledby="blocks-title">
          <h2 id="blocks-title">Components</h2>
          <p class="muted">Blocks this integration adds to the insert menu (Command + /). Live preview:</p>
          {inst.status === 'paused' ? (
            <p class="muted">Resume the installation to preview its components.</p>
          ) : (
            blocks.map((b) => (
              <div key={b.id} class="block-preview">
                <h3>{b.title ?? b.id}</h3>
                <LiveComponent
                  installationId={inst.id}
                  componentId={b.id}
                  label={`Preview of ${b.title ?? b.id}`}
                />
              </div>
            ))
          )}
        </section>
      ) : null}
    </main>
  );
}
