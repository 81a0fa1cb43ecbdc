/** @jsxImportSource preact */
import { type JSX, render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, describeError, setToken, setUnauthorizedHandler } from './api';
import { clearToken, onSignOutElsewhere, storedToken, storeToken, takeTokenFromFragment } from './auth';
import { AuditPage } from './pages/audit';
import { EditorPage } from './pages/editor';
import { GalleryPage } from './pages/gallery';
import { InstallationPage } from './pages/installation';
import { InstallationsPage } from './pages/installations';
import { IntegrationsPage } from './pages/integrations';
import { OrganizationPage } from './pages/organization';
import { OrganizationsPage } from './pages/organizations';
import { SignInPage } from './pages/signin';
import { StatusPage } from './pages/status';
import { type Route, useRoute } from './router';
import {
  describePrincipal,
  navigationFor,
  type Principal,
  PrincipalProvider,
  pageRefusal,
  refusalOf,
} from './session';
import { ErrorNotice, Link, PageRefused } from './ui';

/** Each page of the dashboard (every route but "not found"): its document title and what it renders. */
const PAGES: {
  [P in Exclude<Route['page'], 'not-found'>]: {
    title(route: Extract<Route, { page: P }>): string;
    render(route: Extract<Route, { page: P }>): JSX.Element;
  };
} = {
  integrations: { title: () => 'Integrations', render: () => <IntegrationsPage /> },
  installations: { title: () => 'Installations', render: () => <InstallationsPage /> },
  installation: {
    title: (route) => `Installation ${route.id}`,
    render: (route) => <InstallationPage id={route.id} />,
  },
  editor: {
    title: (route) => `Space ${route.spaceId}`,
    render: (route) => <EditorPage spaceId={route.spaceId} />,
  },
  status: { title: () => 'Host', render: () => <StatusPage /> },
  gallery: { title: () => 'ContentKit gallery', render: () => <GalleryPage /> },
  organizations: { title: () => 'Organizations', render: () => <OrganizationsPage /> },
  organization: {
    title: (route) => `Organization ${route.organization}`,
    render: (route) => <OrganizationPage id={route.organization} />,
  },
  audit: { title: () => 'Audit log', render: () => <AuditPage /> },
};

/** The entry of PAGES for `route`, typed for any such route (each entry takes exactly its own route's kind). */
function pageOf(route: Exclude<Route, { page: 'not-found' }>) {
  return PAGES[route.page] as { title(route: Route): string; render(route: Route): JSX.Element };
}

function Page({ route, who }: { route: Route; who: Principal }) {
  const refused = pageRefusal(who, route);
  if (refused) return <PageRefused reason={refused} />;
  if (route.page !== 'not-found') return pageOf(route).render(route);
  return (
    <main id="main" class="page">
      <h1>Page not found</h1>
      <p>
        Nothing lives at <code>{route.path}</code>. Go to <Link href="/integrations">Integrations</Link>.
      </p>
    </main>
  );
}

function titleOf(route: Route): string {
  return route.page === 'not-found' ? 'Not found' : pageOf(route).title(route);
}

function App() {
  const [token, setTokenState] = useState<string | null>(
    () => takeTokenFromFragment(window) ?? storedToken(window),
  );
  const [notice, setNotice] = useState<string | null>(null);
  // Who the token is (GET /v1/whoami): asked once per token; the sign-in form hands over its answer.
  const [who, setWho] = useState<Principal | null>(null);
  const [whoError, setWhoError] = useState<string | null>(null);
  const [whoTry, setWhoTry] = useState(0);
  const route = useRoute();
  setToken(token ?? '');
  useEffect(() => {
    if (!token || who) return;
    let stale = false;
    setWhoError(null);
    api('GET /v1/whoami').then(
      (answer) => {
        if (stale) return;
        const refusal = refusalOf(answer);
        if (refusal) {
          clearToken(window);
          setNotice(refusal);
          setTokenState(null);
        } else setWho(answer);
      },
      (e: unknown) => {
        if (!stale) setWhoError(describeError(e));
      },
    );
    return () => {
      stale = true;
    };
  }, [token, who, whoTry]);
  useEffect(() => {
    setUnauthorizedHandler(() => {
      clearToken(window);
      setNotice('The host no longer accepts the token of this tab. Sign in again.');
      setWho(null);
      setTokenState(null);
    });
  }, []);
  useEffect(() => {
    // A sign-in link opened in a tab already showing the dashboard only changes the fragment.
    const onHash = () => {
      const fresh = takeTokenFromFragment(window);
      if (fresh) {
        setNotice(null);
        setWho(null);
        setTokenState(fresh);
      }
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  useEffect(
    () =>
      onSignOutElsewhere(window, () => {
        setNotice('You signed out in another tab of this browser.');
        setWho(null);
        setTokenState(null);
      }),
    [],
  );
  useEffect(() => {
    document.title = `${titleOf(route)} · Platform`;
  }, [route]);
  const signOut = () => {
    clearToken(window);
    setNotice(null);
    setWho(null);
    setTokenState(null);
  };
  if (!token) {
    return (
      <SignInPage
        notice={notice}
        onSignedIn={(t, remember, principal) => {
          storeToken(window, t, { remember });
          setNotice(null);
          setWho(principal);
          setTokenState(t);
        }}
      />
    );
  }
  if (!who) {
    return (
      <main id="main" class="page">
        {whoError ? (
          <>
            <h1>Signing in</h1>
            <ErrorNotice
              message={`The host could not say who this token is: ${whoError}`}
              onRetry={() => setWhoTry((n) => n + 1)}
            />
            <button type="button" class="btn btn-secondary" onClick={signOut}>
              Sign out
            </button>
          </>
        ) : (
          <p class="muted">Signing in…</p>
        )}
      </main>
    );
  }
  const current =
    route.page === 'installation' || route.page === 'editor'
      ? 'installations'
      : route.page === 'organization'
        ? 'organizations'
        : route.page;
  return (
    <PrincipalProvider value={who}>
      <a href="#main" class="skip-link">
        Skip to content
      </a>
      <header class="topbar">
        <span class="brand">Platform</span>
        <nav aria-label="Main">
          {navigationFor(who).map((item) => (
            <Link
              key={item.href}
              href={item.href}
              class={current === item.page ? 'nav-link current' : 'nav-link'}
            >
              {item.label}
            </Link>
          ))}
          <a href="/api" class="nav-link" target="_blank" rel="noopener">
            API
          </a>
        </nav>
        <span
          class="principal"
          data-testid="principal"
          title={who.organization ? `${who.organization.name} (${who.organization.id})` : 'The admin token'}
        >
          {describePrincipal(who)}
        </span>
        <button type="button" class="btn btn-link signout" onClick={signOut}>
          Sign out
        </button>
      </header>
      <Page route={route} who={who} />
    </PrincipalProvider>
  );
}

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
