// The usage text of `xborder dev`, apart from src/cli/dev.ts: that file loads @temporalio/worker, an optional peer
// dependency (README, "Using xborder from a backend service"), and `xborder dev --help` must answer in a
// client-only install too (src/cli/commands.ts prints this without importing dev.ts).
import { devEnvironmentHelp } from './service-help';

export const DEV_USAGE = `Usage: xborder dev [options]   (npm start)
  --data-dir DIR       where state persists (default .data)
  --temporal-port N    Temporal frontend port (default 7233)
  --ui-port N          Temporal UI port (default: the frontend port + 1000)
  --sandbox-port N     sandbox port (default 4010)
  --ingress-port N     webhook ingress port (default 4020)
  --codec-port N       codec server port for the UI and CLI (default 4030)
  --events-port N      the stack's receiver of outbound events (default 4040; not started when XBORDER_EVENTS_URL is set)
  --no-demo            do not run the demo transfer
  --once               run the demo transfer, then stop (exit code 0 when it COMPLETED)
${devEnvironmentHelp()}`;
