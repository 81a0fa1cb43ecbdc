/** @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { describeError } from './api';
import { linkHandler } from './router';

/** State of a value loaded from the API. */
export interface Loaded<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload(): Promise<void>;
  set(value: T): void;
}

/**
 * Loads a value once (and again on `reload()`), keeping the last good value during reloads.
 * @example const integrations = useLoad(() => api('GET', '/v1/integrations'), []);
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const reload = useCallback(async () => {
    setLoading(true);
    try {
      setData(await load());
      setError(null);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setLoading(false);
    }
  }, deps);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, loading, reload, set: setData };
}

/** State of a value {@link usePolling} keeps fresh. */
export interface Polled<T> {
  data: T | null;
  /** Why the last refresh failed (the last good `data` stays), or null. */
  error: string | null;
  /** Loads now. */
  refresh(): void;
}

/**
 * Loads a value now, then every `intervalMs` while the page is visible (paused while hidden, loaded at
 * once when shown again); `refresh()` loads now. A failed refresh keeps the last good value.
 * @example const status = usePolling(() => api('GET', '/v1/status'), 2000, []);
 */
export function usePolling<T>(load: () => Promise<T>, intervalMs: number, deps: unknown[]): Polled<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      if (document.visibilityState === 'visible') {
        try {
          const value = await load();
          if (!stopped) {
            setData(value);
            setError(null);
          }
        } catch (e) {
          if (!stopped) setError(describeError(e));
        }
      }
      if (!stopped) timer = setTimeout(() => void run(), intervalMs);
    };
    void run();
    const onVisible = () => {
      if (document.visibilityState === 'visible') {
        clearTimeout(timer);
        void run();
      }
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [...deps, intervalMs, tick]);
  return { data, error, refresh: () => setTick((n) => n + 1) };
}

/**
 * The way back to the installations list, at the top of a page under it.
 *
 * @example
 * <main id="main" class="page"><BackToInstallations />…</main>
 */
export function BackToInstallations() {
  return (
    <p>
      <Link href="/installations">← Installations</Link>
    </p>
  );
}

/** An in-app link. */
export function Link({
  href,
  children,
  class: className,
}: {
  href: string;
  children: ComponentChildren;
  class?: string;
}) {
  return (
    <a href={href} class={className} onClick={linkHandler(href)}>
      {children}
    </a>
  );
}

/** An error from the API, in words, announced to screen readers. */
export function ErrorNotice({ message, onRetry }: { message: string | null; onRetry?: () => void }) {
  if (!message) return null;
  return (
    <div class="alert alert-error" role="alert">
      <span>{message}</span>
      {onRetry ? (
        <button type="button" class="btn btn-secondary btn-small" onClick={onRetry}>
          Retry
        </button>
      ) : null}
    </div>
  );
}

/** A panel saying there is nothing here yet, and what to do about it. */
export function EmptyState({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{title}</p>
      {children ? <div class="empty-body">{children}</div> : null}
    </div>
  );
}

const STATUS_WORDS: Record<string, string> = {
  active: 'Active',
  pending: 'Pending: configuration incomplete',
  paused: 'Paused',
  queued: 'Queued',
  running: 'Sending',
  succeeded: 'Succeeded',
  failed: 'Failed',
  exhausted: 'Retries exhausted',
  cancelled: 'Cancelled',
  revoked: 'Revoked',
  expired: 'Expired',
};

/** A status badge (installation or delivery state). */
export function StatusBadge({ status, testId }: { status: string; testId?: string }) {
  return (
    <span class={`badge badge-${status}`} data-testid={testId}>
      {STATUS_WORDS[status] ?? status}
    </span>
  );
}

/** A short relative time ("12 s ago") with the exact time as a tooltip. */
export function Time({ iso }: { iso: string }) {
  const date = new Date(iso);
  const seconds = Math.round((Date.now() - date.getTime()) / 1000);
  const ahead = -seconds; // a time to come: the next attempt of a queued delivery
  const text =
    ahead >= 5
      ? ahead < 90
        ? `in ${ahead} s`
        : ahead < 5400
          ? `in ${Math.round(ahead / 60)} min`
          : date.toLocaleString()
      : seconds < 5
        ? 'just now'
        : seconds < 90
          ? `${seconds} s ago`
          : seconds < 5400
            ? `${Math.round(seconds / 60)} min ago`
            : date.toLocaleString();
  return (
    <time dateTime={iso} title={date.toLocaleString()}>
      {text}
    </time>
  );
}

/**
 * A button that copies `value` to the clipboard and says so (or says how to copy by hand when the
 * browser refuses).
 *
 * @example
 * <CopyButton value={token} label="Copy token" />
 */
export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [note, setNote] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setNote('Copied.');
    } catch {
      setNote('The browser refused to copy: select the text and copy it by hand.');
    }
  };
  return (
    <>
      <button type="button" class="btn btn-secondary" onClick={() => void copy()}>
        {label}
      </button>
      <span role="status" class="muted copy-note">
        {note}
      </span>
    </>
  );
}

/**
 * A page this token cannot open, and why (before any call: the host would refuse them).
 *
 * @example
 * <PageRefused reason="The host status needs the operator token." />
 */
export function PageRefused({ reason }: { reason: string }) {
  return (
    <main id="main" class="page">
      <h1>Not available with this token</h1>
      <p class="alert alert-warning">{reason}</p>
      <p>
        Go to <Link href="/installations">Installations</Link>.
      </p>
    </main>
  );
}

/**
 * An ISO time as the local date and time.
 * @example <When iso="2030-01-01T00:00:00Z" /> // 1/1/2030, 1:00:00 AM
 */
export function When({ iso, empty = '—' }: { iso: string | null; empty?: string }) {
  if (!iso) return <span class="muted">{empty}</span>;
  return <time dateTime={iso}>{new Date(iso).toLocaleString()}</time>;
}

/**
 * Names shown as code, one list item each, in a `plain` list with `class`; `href` makes an item a link.
 *
 * @example
 * <CodeList class="scope-list" items={token.scopes} />
 */
export function CodeList({
  items,
  class: className,
  href,
}: {
  items: readonly string[];
  class: string;
  href?: (item: string) => string;
}) {
  return (
    <ul class={`plain ${className}`}>
      {items.map((item) => (
        <li key={item}>
          {href ? (
            <Link href={href(item)}>
              <code>{item}</code>
            </Link>
          ) : (
            <code>{item}</code>
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * A muted line announced politely to screen readers (`role="status"`): what the action beside it did.
 *
 * @example
 * <StatusNote>{note}</StatusNote>
 */
export function StatusNote({ children }: { children: ComponentChildren }) {
  return (
    <span role="status" class="muted">
      {children}
    </span>
  );
}
