// A small in-process metric meter that renders the Prometheus text format (version 0.0.4), for processes that
// have no Temporal worker runtime (the webhook ingress). It implements the SDK's MetricMeter interface, so
// the same XborderMetrics code counts into it or into the worker runtime's meter.
import type {
  MetricCounter,
  MetricGauge,
  MetricHistogram,
  MetricMeter,
  MetricTags,
  NumericMetricValueType,
} from '@temporalio/common';

type Kind = 'counter' | 'gauge' | 'histogram';

interface Family {
  name: string;
  kind: Kind;
  description: string;
  /** label set (serialised) → value; a histogram keeps sum and count */
  series: Map<string, { tags: MetricTags; value: number; count: number }>;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

function seriesKey(tags: MetricTags): string {
  return JSON.stringify(Object.entries(tags).sort(([a], [b]) => a.localeCompare(b)));
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function labels(tags: MetricTags): string {
  const entries = Object.entries(tags).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) return '';
  return `{${entries.map(([k, v]) => `${k.replace(/[^a-zA-Z0-9_]/g, '_')}="${escapeLabel(String(v))}"`).join(',')}}`;
}

export class PrometheusRegistry implements MetricMeter {
  private readonly families = new Map<string, Family>();

  constructor(
    private readonly baseTags: MetricTags = {},
    families?: Map<string, Family>,
  ) {
    if (families) this.families = families;
  }

  private family(name: string, kind: Kind, description = ''): Family {
    if (!NAME.test(name)) throw new Error(`invalid metric name "${name}"`);
    const existing = this.families.get(name);
    if (existing) {
      if (existing.kind !== kind) throw new Error(`metric ${name} is a ${existing.kind}, not a ${kind}`);
      return existing;
    }
    const family: Family = { name, kind, description, series: new Map() };
    this.families.set(name, family);
    return family;
  }

  private record(
    family: Family,
    tags: MetricTags,
    apply: (s: { value: number; count: number }) => void,
  ): void {
    const key = seriesKey(tags);
    let s = family.series.get(key);
    if (!s) {
      s = { tags, value: 0, count: 0 };
      family.series.set(key, s);
    }
    apply(s);
  }

  createCounter(name: string, unit?: string, description?: string): MetricCounter {
    const family = this.family(name, 'counter', description);
    const make = (tags: MetricTags): MetricCounter => ({
      name,
      unit,
      description,
      kind: 'counter',
      valueType: 'int',
      add: (value, extra) => {
        if (value < 0) throw new Error(`counter ${name} cannot decrease`);
        this.record(family, { ...tags, ...extra }, (s) => void (s.value += value));
      },
      withTags: (more) => make({ ...tags, ...more }),
    });
    return make({ ...this.baseTags });
  }

  createGauge(
    name: string,
    valueType: NumericMetricValueType = 'int',
    unit?: string,
    description?: string,
  ): MetricGauge {
    const family = this.family(name, 'gauge', description);
    const make = (tags: MetricTags): MetricGauge => ({
      name,
      unit,
      description,
      kind: 'gauge',
      valueType,
      set: (value, extra) => this.record(family, { ...tags, ...extra }, (s) => void (s.value = value)),
      withTags: (more) => make({ ...tags, ...more }),
    });
    return make({ ...this.baseTags });
  }

  /** Rendered as sum and count (a summary without quantiles): enough for rates and averages. */
  createHistogram(
    name: string,
    valueType: NumericMetricValueType = 'int',
    unit?: string,
    description?: string,
  ): MetricHistogram {
    const family = this.family(name, 'histogram', description);
    const make = (tags: MetricTags): MetricHistogram => ({
      name,
      unit,
      description,
      kind: 'histogram',
      valueType,
      record: (value, extra) =>
        this.record(family, { ...tags, ...extra }, (s) => {
          s.value += value;
          s.count += 1;
        }),
      withTags: (more) => make({ ...tags, ...more }),
    });
    return make({ ...this.baseTags });
  }

  withTags(tags: MetricTags): MetricMeter {
    return new PrometheusRegistry({ ...this.baseTags, ...tags }, this.families);
  }

  /** The current value of one series (tests, health checks). */
  value(name: string, tags: MetricTags = {}): number {
    return this.families.get(name)?.series.get(seriesKey({ ...this.baseTags, ...tags }))?.value ?? 0;
  }

  /** Prometheus text exposition format 0.0.4. */
  render(): string {
    const lines: string[] = [];
    for (const f of this.families.values()) {
      if (f.description) lines.push(`# HELP ${f.name} ${f.description.replace(/\n/g, ' ')}`);
      lines.push(`# TYPE ${f.name} ${f.kind === 'histogram' ? 'summary' : f.kind}`);
      for (const s of f.series.values()) {
        if (f.kind === 'histogram') {
          lines.push(
            `${f.name}_sum${labels(s.tags)} ${s.value}`,
            `${f.name}_count${labels(s.tags)} ${s.count}`,
          );
        } else {
          lines.push(`${f.name}${labels(s.tags)} ${s.value}`);
        }
      }
    }
    return `${lines.join('\n')}\n`;
  }
}

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
