/** @jsxImportSource preact */
import { useState } from 'preact/hooks';
import type { ApiCall, Installation } from '../app/api';
import { useAction } from '../app/controls';
import { ErrorNotice, StatusNote } from '../app/ui';

/** One event a webhook installation can select (a boolean of the webhook integration's configuration). */
interface EventChoice {
  key: string;
  title: string;
  description: string;
}

const SPACE_EVENTS: EventChoice[] = [
  {
    key: 'space_content_updated',
    title: 'Space content updated',
    description: 'Content in the space was modified.',
  },
];
const SITE_EVENTS: EventChoice[] = [
  { key: 'site_view', title: 'Site view', description: 'A visitor opened a page (carries visitor data).' },
  {
    key: 'page_feedback',
    title: 'Page feedback',
    description: 'A visitor rated a page (carries visitor data).',
  },
];

/**
 * The events a webhook installation can select, by where it is installed (the webhook integration's
 * settings: a site's `site_view` and `page_feedback`, otherwise `space_content_updated`).
 *
 * @example
 * eventsOf({ target: 'site' }).map((e) => e.key); // ['site_view', 'page_feedback']
 */
export function eventsOf(installation: Pick<Installation, 'target'>): EventChoice[] {
  return installation.target === 'site' ? SITE_EVENTS : SPACE_EVENTS;
}

/**
 * Where an installation is, in words.
 *
 * @example
 * placeOf({ target: 'space', space: 'docs' }); // 'Space docs'
 */
export function placeOf(
  installation: Pick<Installation, 'target' | 'space' | 'site' | 'organization'>,
): string {
  if (installation.target === 'site') return `Site ${installation.site ?? ''}`.trim();
  if (installation.target === 'space') return `Space ${installation.space ?? ''}`.trim();
  return `Organization ${installation.organization ?? ''}`.trim();
}

/** What the portal's views of one installation take: the API client, the installation, and who to tell when it is saved. */
export interface InstallationProps {
  client: ApiCall;
  installation: Installation;
  onSaved(updated: Installation): void;
}

/**
 * The form of a webhook installation's URL and selected events: saved with `PATCH /v1/installations/{id}`
 * (`{configuration: {url, <event>: boolean}}`); the host's validation errors are shown by their field.
 *
 * @example
 * <EndpointSettings client={client} installation={installation} onSaved={(i) => setInstallation(i)} />
 */
export function EndpointSettings({ client, installation, onSaved }: InstallationProps) {
  const events = eventsOf(installation);
  const config = installation.configuration;
  const [url, setUrl] = useState(typeof config.url === 'string' ? config.url : '');
  const [selected, setSelected] = useState<Record<string, boolean>>(() =>
    Object.fromEntries(events.map((e) => [e.key, config[e.key] === true])),
  );
  const { busy, error, run } = useAction();
  const [note, setNote] = useState('');
  const urlError = installation.configurationErrors.find((e) => e.key === 'url')?.message;

  const save = async (event: Event) => {
    event.preventDefault();
    const ok = await run(async () => {
      const updated = await client('PATCH /v1/installations/{id}', {
        params: { id: installation.id },
        body: { configuration: { url: url.trim(), ...selected } },
      });
      onSaved(updated);
      setNote(
        updated.configurationErrors.length
          ? 'Saved, but the webhook is not active until the problems above are fixed.'
          : 'Saved: the next events go to this URL.',
      );
    });
    if (!ok) {
      setNote('');
    }
  };

  return (
    <section class="card" aria-labelledby="settings-title">
      <h2 id="settings-title">Endpoint</h2>
      <form class="config-form" noValidate onSubmit={(e) => void save(e)} aria-label="Endpoint settings">
        <div class="field">
          <label class="field-label" for="portal-url">
            Webhook URL
          </label>
          <input
            id="portal-url"
            type="url"
            inputMode="url"
            autoComplete="off"
            spellcheck={false}
            value={url}
            aria-invalid={urlError ? 'true' : undefined}
            aria-describedby={urlError ? 'portal-url-error' : 'portal-url-help'}
            onInput={(e) => setUrl((e.currentTarget as HTMLInputElement).value)}
          />
          <p class="help" id="portal-url-help">
            Receives a signed POST for each selected event. https:// is required.
          </p>
          {urlError ? (
            <p class="field-error" id="portal-url-error">
              {urlError}
            </p>
          ) : null}
        </div>
        <fieldset class="portal-events">
          <legend class="field-label">Events</legend>
          {events.map((e) => (
            <label class="check" key={e.key}>
              <input
                type="checkbox"
                checked={selected[e.key] === true}
                onChange={(ev) =>
                  setSelected({ ...selected, [e.key]: (ev.currentTarget as HTMLInputElement).checked })
                }
              />
              <span>
                {e.title} <span class="muted">— {e.description}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <div class="form-actions">
          <button type="submit" class="btn btn-primary" disabled={busy}>
            Save
          </button>
          <StatusNote>{note}</StatusNote>
        </div>
        <ErrorNotice message={error} />
      </form>
    </section>
  );
}
