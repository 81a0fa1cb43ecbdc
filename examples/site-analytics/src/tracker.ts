/**
 * The tracking script a published page includes: it sends one beacon per page view to the stats
 * server (allowed by the manifest's `connect-src`), with the configured domain and the site.
 */
export function trackerScript(options: { domain: string; siteId: string }): string {
  return `(function () {
  var payload = JSON.stringify({ domain: ${JSON.stringify(options.domain)}, site: ${JSON.stringify(options.siteId)}, url: location.href });
  window.siteAnalytics = { domain: ${JSON.stringify(options.domain)}, site: ${JSON.stringify(options.siteId)} };
  if (navigator.sendBeacon) navigator.sendBeacon('https://stats.example.com/api/event', payload);
})();
`;
}
