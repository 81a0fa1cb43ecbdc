/** @jsxImportSource preact */
import { render } from 'preact';
import { forgetFragment, readPortalLink } from './link';
import { Portal, PortalProblem } from './portal';

// The link's fragment is read once, then removed from the address bar: the session token lives in this
// module's memory only (never in localStorage, sessionStorage or a cookie), and is gone with the tab.
const opened = readPortalLink(window.location.hash);
forgetFragment(window);

const root = document.getElementById('app');
if (root) {
  render(
    'link' in opened ? (
      <Portal link={opened.link} />
    ) : (
      <PortalProblem title="No portal link" message={opened.problem} />
    ),
    root,
  );
}
