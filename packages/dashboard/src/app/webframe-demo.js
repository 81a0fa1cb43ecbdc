// The gallery's webframe content (docs/contentkit.md, `webframe`): a page speaking the message
// bridge. It announces `@webframe.ready`, shows the `state` it receives, and asks for a height.
const out = document.getElementById('out');
const send = (action) => window.parent.postMessage({ action }, '*');
window.addEventListener('message', (event) => {
  const state = event.data?.state;
  if (!state || typeof state !== 'object') return;
  out.textContent = `state: ${JSON.stringify(state)}`;
  send({ action: '@webframe.resize', size: { height: 80 } });
});
send({ action: '@webframe.ready' });
