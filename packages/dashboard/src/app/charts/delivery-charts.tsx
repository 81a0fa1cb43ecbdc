/** @jsxImportSource preact */
import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import { api } from '../api';
import { ErrorNotice, usePolling } from '../ui';
import { type ChartData, type ChartRange, chartsOf, formatValue } from './series';

const REFRESH_MS = 30_000;
const HEIGHT = 170;
const RANGES: { range: ChartRange; label: string }[] = [
  { range: 'hour', label: 'Last hour' },
  { range: 'day', label: 'Last day' },
  { range: 'week', label: 'Last week' },
];

/** One uPlot chart, as wide as its box (redrawn when the box changes size or the data changes). */
function Chart({ chart }: { chart: ChartData }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = () => Math.max(160, Math.floor(el.clientWidth));
    const format = (v: number | null) => formatValue(v, chart.unit);
    const plot = new uPlot(
      {
        width: width(),
        height: HEIGHT,
        legend: { show: true, live: true },
        cursor: { drag: { x: false, y: false } },
        scales: {
          x: { time: true },
          y:
            chart.unit === 'percent'
              ? { range: [0, 1] }
              : { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] },
        },
        axes: [
          { stroke: '#57606a', grid: { stroke: '#eef0f3' }, ticks: { stroke: '#d8dee4' } },
          {
            stroke: '#57606a',
            grid: { stroke: '#eef0f3' },
            ticks: { stroke: '#d8dee4' },
            size: 64,
            values: (_u, splits) => splits.map((v) => format(v)),
          },
        ],
        series: [
          { label: 'time' },
          ...chart.lines.map((line) => ({
            label: line.label,
            stroke: line.color,
            width: 1.5,
            // Sparse lines (a few busy minutes) show their points: a lone value has no line to draw.
            points: { show: line.values.filter((v) => v !== null).length <= 30, size: 5 },
            value: (_u: uPlot, v: number | null) => format(v),
          })),
        ],
      },
      [chart.xs, ...chart.lines.map((l) => l.values)] as uPlot.AlignedData,
      el,
    );
    const resize = new ResizeObserver(() => {
      if (plot.width !== width()) plot.setSize({ width: width(), height: HEIGHT });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [chart]);
  const points = chart.lines.reduce((n, l) => n + l.values.filter((v) => v !== null && v > 0).length, 0);
  return (
    <figure class="chart" data-testid={`chart-${chart.id}`} data-points={points}>
      <figcaption>{chart.title}</figcaption>
      <div ref={box} class="chart-plot" />
    </figure>
  );
}

/**
 * The delivery charts of the host (no `installationId`) or of one installation: attempts (succeeded,
 * retried, failed), success rate, attempt duration p50/p95/p99, accepted → first attempt p50/p99 and the
 * backlog, over the last hour, day or week (`GET /v1/stats/deliveries`), refreshed every 30 s.
 */
export function DeliveryCharts({ installationId }: { installationId?: string }) {
  const [range, setRange] = useState<ChartRange>('hour');
  const stats = usePolling(
    () =>
      api('GET /v1/stats/deliveries', {
        query: { range, ...(installationId ? { installation: installationId } : {}) },
      }),
    REFRESH_MS,
    [range, installationId],
  );
  const s = stats.data?.range === range ? stats.data : null;
  const charts = s ? chartsOf(s) : [];
  const attempts = s ? s.buckets.reduce((n, b) => n + b.attempts, 0) : 0;
  return (
    <section
      class="card"
      aria-labelledby="charts-title"
      data-testid="delivery-charts"
      data-range={s?.range ?? ''}
      data-attempts={attempts}
    >
      <div class="section-head charts-head">
        <h2 id="charts-title">{installationId ? 'Deliveries over time' : 'Webhook deliveries over time'}</h2>
        <fieldset class="segmented">
          <legend class="sr-only">Range</legend>
          {RANGES.map((r) => (
            <button
              key={r.range}
              type="button"
              class="segment"
              aria-pressed={r.range === range}
              onClick={() => setRange(r.range)}
            >
              {r.label}
            </button>
          ))}
        </fieldset>
      </div>
      <p class="muted">
        {s
          ? `${attempts} attempt${attempts === 1 ? '' : 's'} in the ${RANGES.find((r) => r.range === range)?.label.toLowerCase()}. `
          : ''}
        Rolled up from the attempts every minute
        {s?.rolledUpAt ? `, last at ${new Date(s.rolledUpAt).toLocaleTimeString()}` : ''}.
      </p>
      <ErrorNotice message={stats.error ? `The charts could not be loaded: ${stats.error}` : null} />
      {!s && !stats.error ? <p class="muted">Loading…</p> : null}
      <div class="charts">
        {charts.map((chart) => (
          <Chart key={`${range}-${chart.id}`} chart={chart} />
        ))}
      </div>
    </section>
  );
}
