/** @jsxImportSource preact */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { setToken, setUnauthorizedHandler } from './api';
import { clearToken, onSignOutElsewhere, storedToken, storeToken, takeTokenFromFragment } from './auth';
import { EditorPage } from './pages/editor';
import { GalleryPage } from './pages/gallery';
import { InstallationPage } from './pages/installation';
import { InstallationsPage } from './pages/installations';
import { IntegrationsPage } from './pages/integrations';
import { SignInPage } from './pages/signin';
import { StatusPage } from './pages/status';
import { type Route, useRoute } from './router';
import { Link } from './ui';

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'integrations':
      return <IntegrationsPage />;
    case 'installations':
      return <InstallationsPage />;
    case 'installation':
      return <InstallationPage id={route.id} />;
    case 'editor':
      return <EditorPage spaceId={route.spaceId} />;
    case 'status':
      return <StatusPage />;
    case 'gallery':
      return <GalleryPage />;
    default:
      return (
        <main id="main" class="page">
          <h1>Page not found</h1>
          <p>
            Nothing lives at <code>{route.path}</code>. Go to <Link href="/integrations">Integrations</Link>.
          </p>
        </main>
      );
  }
}

function titleOf(route: Route): string {
  switch (route.page) {
    case 'integrations':
      return 'Integrations';
    case 'installations':
      return 'Installations';
    case 'installation':
      return `Installation ${route.id}`;
    case 'editor':
      return `Space ${route.spaceId}`;
    case 'status':
      return 'Host';
    case 'gallery':
      return 'ContentKit gallery';
    default:
      return 'Not found';
  }
}

function App() {
  const [token, setTokenState] = useState<string | null>(
    () => takeTokenFromFragment(window) ?? storedToken(window),
  );
  const [notice, setNotice] = useState<string | null>(null);
  const route = useRoute();
  setToken(token ?? '');
  useEffect(() => {
    setUnauthorizedHandler(() => {
      clearToken(window);
      setNotice('The host no longer accepts the token of this tab. Sign in again.');
      setTokenState(null);
    });
  }, []);
  useEffect(() => {
    // A sign-in link opened in a tab already showing the dashboard only changes the fragment.
    const onHash = () => {
      const fresh = takeTokenFromFragment(window);
      if (fresh) {
        setNotice(null);
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
    setTokenState(null);
  };
  if (!token) {
    return (
      <SignInPage
        notice={notice}
        onSignedIn={(t, remember) => {
          storeToken(window, t, { remember });
          setNotice(null);
          setTokenState(t);
        }}
      />
    );
  }
  const current = route.page === 'installation' || route.page === 'editor' ? 'installations' : route.page;
  return (
    <>
      <a href="#main" class="skip-link">
        Skip to content
      </a>
      <header class="topbar">
        <span class="brand">Platform</span>
        <nav aria-label="Main">
          <Link href="/integrations" class={current === 'integrations' ? 'nav-link current' : 'nav-link'}>
            Integrations
          </Link>
          <Link href="/installations" class={current === 'installations' ? 'nav-link current' : 'nav-link'}>
            Installations
          </Link>
          <Link href="/status" class={current === 'status' ? 'nav-link current' : 'nav-link'}>
            Host
          </Link>
          <Link href="/gallery" class={current === 'gallery' ? 'nav-link current' : 'nav-link'}>
            Gallery
          </Link>
          <a href="/api" class="nav-link" target="_blank" rel="noopener">
            API
          </a>
        </nav>
        <button type="button" class="btn btn-link signout" onClick={signOut}>
          Sign out
        </button>
      </header>
      <Page route={route} />
    </>
  );
}

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
