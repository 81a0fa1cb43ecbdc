/** @jsxImportSource preact */
import { useState } from 'preact/hooks';
import { ApiError, apiSigningIn, describeError, setToken } from '../api';
import { type Principal, refusalOf } from '../session';

/**
 * The sign-in form: the operator's admin token or an organization token, checked against the host
 * (`GET /v1/whoami`) before it is kept; the answer (who the token is) is handed over with it.
 */
export function SignInPage({
  onSignedIn,
  notice,
}: {
  onSignedIn(token: string, remember: boolean, who: Principal): void;
  notice?: string | null;
}) {
  const [value, setValue] = useState('');
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const token = value.trim();
    if (!token) {
      setError('Enter the admin token or an organization token.');
      return;
    }
    setBusy(true);
    setToken(token);
    try {
      const who = await apiSigningIn('GET /v1/whoami');
      const refusal = refusalOf(who);
      if (refusal) {
        setToken('');
        setError(refusal);
        setBusy(false);
        return;
      }
      onSignedIn(token, remember, who);
    } catch (e) {
      setToken('');
      setError(
        e instanceof ApiError && (e.status === 401 || e.status === 403)
          ? 'This host does not accept that token. Use the admin token printed when the host started (or kept in its data folder, file admin-token), or an organization token (pot_…) that is not revoked or expired.'
          : describeError(e),
      );
      setBusy(false);
    }
  };
  return (
    <main id="main" class="signin">
      <form class="card signin-card" onSubmit={(e) => void submit(e)} noValidate>
        <h1>Sign in</h1>
        <p class="muted">
          Use the admin token of this host. <code>npm start</code> prints a sign-in link; the token is also in
          the data folder (<code>.platform/admin-token</code>) unless <code>PLATFORM_ADMIN_TOKEN</code> is
          set. An organization token (<code>pot_…</code>) signs in as that organization.
        </p>
        {notice ? <p class="alert alert-warning">{notice}</p> : null}
        <label for="token" class="field-label">
          Admin token or organization token
        </label>
        <input
          id="token"
          type="password"
          autoComplete="current-password"
          value={value}
          onInput={(e) => setValue((e.currentTarget as HTMLInputElement).value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'token-error' : undefined}
        />
        {error ? (
          <p id="token-error" class="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" class="btn btn-primary" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
        <label class="check">
          <input
            type="checkbox"
            checked={remember}
            onChange={(e) => setRemember((e.currentTarget as HTMLInputElement).checked)}
          />{' '}
          Stay signed in on this browser
        </label>
        <p class="meta">
          Unticked, the token is kept for this tab only. Ticked, every tab of this browser uses it until you
          sign out: only on a computer you alone use.
        </p>
      </form>
    </main>
  );
}
