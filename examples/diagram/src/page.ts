/**
 * The webframe page of the diagram block: it speaks the webframe bridge (docs/contentkit.md,
 * `webframe`): announces `@webframe.ready`, draws the `content` it receives as boxes and arrows
 * (one `A --> B` edge per line), then asks for its height with `@webframe.resize`.
 */
export const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Diagram</title>
<style>body{margin:0;font-family:system-ui,sans-serif}svg{display:block}</style></head>
<body><svg id="out" role="img" aria-label="Diagram" width="100%" height="40"></svg>
<script>
const svg = document.getElementById('out');
const NS = 'http://www.w3.org/2000/svg';
function draw(content) {
  const edges = String(content).split('\\n').map((l) => l.split('-->').map((s) => s.trim())).filter((p) => p.length === 2 && p[0] && p[1]);
  const nodes = [...new Set(edges.flat())];
  svg.replaceChildren();
  nodes.forEach((name, i) => {
    const g = document.createElementNS(NS, 'g');
    const rect = document.createElementNS(NS, 'rect');
    rect.setAttribute('x', 10 + i * 130); rect.setAttribute('y', 10); rect.setAttribute('width', 100); rect.setAttribute('height', 36);
    rect.setAttribute('rx', 6); rect.setAttribute('fill', '#e8eefc'); rect.setAttribute('stroke', '#1f3a8a');
    const text = document.createElementNS(NS, 'text');
    text.setAttribute('x', 60 + i * 130); text.setAttribute('y', 33); text.setAttribute('text-anchor', 'middle');
    text.textContent = name;
    g.append(rect, text); svg.append(g);
  });
  svg.setAttribute('aria-label', 'Diagram: ' + edges.map((e) => e.join(' to ')).join(', '));
  svg.setAttribute('height', 56);
  parent.postMessage({ action: { action: '@webframe.resize', size: { height: 60 } } }, '*');
}
addEventListener('message', (event) => {
  const state = event.data && event.data.state;
  if (state && typeof state.content === 'string') draw(state.content);
});
parent.postMessage({ action: { action: '@webframe.ready' } }, '*');
</script></body></html>`;
