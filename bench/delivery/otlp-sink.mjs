// A tiny OTLP/HTTP trace sink for benchmarks: `node bench/delivery/otlp-sink.mjs [--port=4318]` accepts
// `POST /v1/traces` (JSON, as the host's exporter sends), counts the spans, answers 200 `{}`, and prints the
// count every 10 s and when stopped (SIGINT / SIGTERM). Run it in its own process, so that its work is not
// counted as the host's nor slows the benchmark's receiver:
//
//   node bench/delivery/otlp-sink.mjs --port=4318 &
//   npm run bench:delivery:ab -- --variant=off: --variant=on:OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318
import { createServer } from 'node:http';

const port = Number(process.argv.find((a) => a.startsWith('--port='))?.slice(7) ?? '4318');
let spans = 0;
let requests = 0;
let bad = 0;

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    requests++;
    try {
      if (req.method !== 'POST' || req.url !== '/v1/traces') throw new Error('not an export');
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const rs of body.resourceSpans ?? [])
        for (const ss of rs.scopeSpans ?? []) spans += ss.spans?.length ?? 0;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    } catch {
      bad++;
      res.writeHead(400).end();
    }
  });
});

const report = () => console.log(`otlp-sink: ${spans} spans in ${requests} requests (${bad} refused)`);
setInterval(report, 10_000).unref();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    report();
    server.close();
    process.exit(0);
  });
}
server.listen(port, '127.0.0.1', () => console.log(`otlp-sink: listening on http://127.0.0.1:${port}`));
