const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The board preview the integration serves (an SVG drawn from the board name). */
export function previewSvg(name: string): string {
  const columns = ['To do', 'Doing', 'Done']
    .map(
      (title, i) =>
        `<rect x="${20 + i * 200}" y="60" width="180" height="200" rx="10" fill="#f1f5ff" stroke="#9db0e8"/>` +
        `<text x="${110 + i * 200}" y="90" text-anchor="middle" font-size="16">${title}</text>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="280" viewBox="0 0 640 280"><rect width="640" height="280" fill="#fff"/><text x="20" y="36" font-size="22" font-family="sans-serif" font-weight="bold">${escapeXml(name)}</text>${columns}</svg>`;
}

/** The integration's icon. */
export const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1f3a8a"/><rect x="6" y="8" width="6" height="16" fill="#fff"/><rect x="14" y="8" width="6" height="11" fill="#fff"/><rect x="22" y="8" width="4" height="6" fill="#fff"/></svg>';
