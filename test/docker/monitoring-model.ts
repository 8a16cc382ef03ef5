// temporal-docker/prometheus/ and temporal-docker/grafana/ read for the compose test: the metric names and label
// values their PromQL uses, and a rules file made of the dashboard's queries so promtool can check them.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { DOCKER_DIR, ROOT } from './compose-model';

export const PROMETHEUS_DIR = path.join(DOCKER_DIR, 'prometheus');
export const DASHBOARD_FILE = path.join(DOCKER_DIR, 'grafana', 'xborder-dashboard.json');

/** promtool from scripts/ensure-promtool.sh (PATH, .tools/, else Debian's package, downloaded once). */
export function promtoolPath(): string {
  return execFileSync('bash', [path.join(ROOT, 'scripts', 'ensure-promtool.sh')], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .at(-1)!;
}

export interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export function alertRules(): AlertRule[] {
  const file = parse(readFileSync(path.join(PROMETHEUS_DIR, 'alerts.yaml'), 'utf8')) as {
    groups: Array<{ rules: AlertRule[] }>;
  };
  return file.groups.flatMap((g) => g.rules);
}

interface DashboardPanel {
  title: string;
  datasource?: { uid?: string };
  targets?: Array<{ expr: string; datasource?: { uid?: string } }>;
}

export function dashboard(): {
  uid: string;
  panels: DashboardPanel[];
  templating: { list: Array<{ name: string; type: string; query: string }> };
} {
  return JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8')) as ReturnType<typeof dashboard>;
}

/** Grafana's interval variables replaced by a plain range, so the query is PromQL promtool can parse. */
export function dashboardExprs(): string[] {
  return dashboard().panels.flatMap((p) =>
    (p.targets ?? []).map((t) => t.expr.replace(/\$__(rate_)?interval|\$__range/g, '5m')),
  );
}

/** The dashboard's queries as recording rules: `promtool check rules` then parses every one. */
export function dashboardAsRules(): string {
  const rules = dashboardExprs().map((expr, i) => ({ record: `dashboard:query_${i + 1}`, expr }));
  return JSON.stringify({ groups: [{ name: 'xborder-dashboard-queries', rules }] }); // JSON is YAML
}

/** Metric names (xborder_*, temporal_*) a PromQL expression reads. */
export function metricNames(expr: string): string[] {
  return [...expr.matchAll(/\b((?:xborder|temporal)_[a-z_]+)\b/g)].map((m) => m[1]!);
}

/** Values a PromQL expression gives `label` (`label="v"` and `label=~"a|b"`). */
export function labelValues(expr: string, label: string): string[] {
  return [...expr.matchAll(new RegExp(`\\b${label}\\s*=~?\\s*"([^"]*)"`, 'g'))].flatMap((m) =>
    m[1]!.split('|'),
  );
}
