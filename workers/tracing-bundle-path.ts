// Which prebuilt workflow bundle a worker with tracing on loads: the one next to the configured bundle,
// with `-otel` before `.js` (`npm run build` and `npm run build:lambda` write both), so one XBORDER_WORKFLOW_BUNDLE
// serves with tracing on and off. Without that file the configured bundle is used: activity and provider spans are
// still made, but they start their own traces (no workflow spans to join).
import { existsSync } from 'node:fs';

export function tracingBundlePath(bundlePath: string): string {
  return bundlePath.replace(/(\.js)?$/, '-otel.js');
}

/** The bundle to load: the tracing one when tracing is on and it exists, else the configured one. */
export function chooseBundlePath(
  bundlePath: string,
  tracing: boolean,
  warn: (message: string) => void = console.warn,
): string {
  if (!tracing) return bundlePath;
  const traced = tracingBundlePath(bundlePath);
  if (existsSync(traced)) return traced;
  warn(`tracing is on but ${traced} does not exist: workflow spans are not recorded (run npm run build)`);
  return bundlePath;
}
