import type { DeliveryStats } from '../api';

/** The ranges a chart shows. */
export type ChartRange = DeliveryStats['range'];

/** One line of a chart. */
export interface Line {
  label: string;
  color: string;
  values: (number | null)[];
}

/** One chart's data: x in seconds (uPlot's time scale), its lines, and how its values read. */
export interface ChartData {
  id: string;
  title: string;
  xs: number[];
  lines: Line[];
  unit: 'count' | 'ms' | 'percent';
}

const COLORS = {
  ok: '#1a7f37',
  warn: '#b35900',
  bad: '#c62828',
  p50: '#0b5cd5',
  p95: '#7a3fd1',
  p99: '#c62828',
  queued: '#0b5cd5',
  due: '#b35900',
};

/**
 * "per minute", "per 5 minutes", "per hour": what one bucket of a series spans.
 *
 * @example
 * perBucket(300); // 'per 5 minutes'
 */
export function perBucket(bucketSeconds: number): string {
  if (bucketSeconds === 60) return 'per minute';
  if (bucketSeconds === 3600) return 'per hour';
  return `per ${Math.round(bucketSeconds / 60)} minutes`;
}

/**
 * A value as a chart's axis and legend show it.
 *
 * @example
 * formatValue(1530, 'ms'); // '1.53 s'
 * formatValue(0.987, 'percent'); // '98.7 %'
 */
export function formatValue(value: number | null, unit: ChartData['unit']): string {
  if (value === null || !Number.isFinite(value)) return '–';
  if (unit === 'percent') return `${Math.round(value * 1000) / 10} %`;
  if (unit === 'ms') {
    if (value >= 1000) return `${Math.round(value / 10) / 100} s`;
    return `${Math.round(value * 10) / 10} ms`;
  }
  return Math.abs(value) >= 10_000
    ? `${Math.round(value / 100) / 10}k`
    : String(Math.round(value * 100) / 100);
}

/**
 * The five charts of a series: deliveries (succeeded, retried, failed), success rate, attempt duration
 * p50/p95/p99, accepted → first attempt p50/p99, backlog (queued, due).
 *
 * @example
 * const charts = chartsOf(await api('GET /v1/stats/deliveries', { query: { range: 'hour' } }));
 * charts.map((c) => c.id); // ['deliveries', 'success', 'duration', 'first-attempt', 'backlog']
 */
export function chartsOf(stats: DeliveryStats): ChartData[] {
  const xs = stats.buckets.map((b) => Date.parse(b.at) / 1000);
  const pick = (f: (b: DeliveryStats['buckets'][number]) => number | null) => stats.buckets.map(f);
  /** One line per percentile of the figure `of` a bucket. */
  const percentiles = (
    of: (b: DeliveryStats['buckets'][number]) => DeliveryStats['buckets'][number]['duration'],
    which: ReadonlyArray<'p50' | 'p95' | 'p99'>,
  ): Line[] => which.map((p) => ({ label: p, color: COLORS[p], values: pick((b) => of(b)[p]) }));
  const per = perBucket(stats.bucketSeconds);
  return [
    {
      id: 'deliveries',
      title: `Attempts ${per}`,
      xs,
      unit: 'count',
      lines: [
        { label: 'succeeded', color: COLORS.ok, values: pick((b) => b.succeeded) },
        { label: 'retried', color: COLORS.warn, values: pick((b) => b.retried) },
        { label: 'failed', color: COLORS.bad, values: pick((b) => b.failed) },
      ],
    },
    {
      id: 'success',
      title: 'Success rate',
      xs,
      unit: 'percent',
      lines: [{ label: 'succeeded / attempts', color: COLORS.ok, values: pick((b) => b.successRate) }],
    },
    {
      id: 'duration',
      title: 'Attempt duration',
      xs,
      unit: 'ms',
      lines: percentiles((b) => b.duration, ['p50', 'p95', 'p99']),
    },
    {
      id: 'first-attempt',
      title: 'Accepted → first attempt',
      xs,
      unit: 'ms',
      lines: percentiles((b) => b.firstAttempt, ['p50', 'p99']),
    },
    {
      id: 'backlog',
      title: 'Backlog (waiting deliveries)',
      xs,
      unit: 'count',
      lines: [
        { label: 'queued', color: COLORS.queued, values: pick((b) => b.backlog?.queued ?? null) },
        { label: 'due', color: COLORS.due, values: pick((b) => b.backlog?.due ?? null) },
      ],
    },
  ];
}
