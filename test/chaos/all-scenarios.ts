// Every scenario `npm run chaos` runs, in order: crashes, restarts, faults and storms, then the deploys (deploy-scenarios.ts).
import { DEPLOY_SCENARIOS } from './deploy-scenarios';
import { DEPLOY_COMPOSE_SCENARIO, DEPLOY_REPLACE_ONLY_WORKER_SCENARIO } from './deploy-compose';
import { KEY_ROTATION_SCENARIO } from './key-rotation';
import { RECEIVER_OUTAGE } from './receiver-outage';
import { REPLICAS_SCENARIO } from './replicas';
import { SCENARIOS, type Scenario } from './scenarios';

export const ALL_SCENARIOS: Scenario[] = [
  ...SCENARIOS,
  RECEIVER_OUTAGE, // the backend's event receiver down twice mid-run (receiver-outage.ts)
  ...DEPLOY_SCENARIOS,
  DEPLOY_COMPOSE_SCENARIO, // the documented compose upgrade, step by step (deploy-compose.ts)
  DEPLOY_REPLACE_ONLY_WORKER_SCENARIO, // the old upgrade that stalled: the alerts' signals see it (deploy-compose.ts)
  REPLICAS_SCENARIO, // two workers, two ingresses, one of each SIGKILLed (replicas.ts)
  KEY_ROTATION_SCENARIO, // payload key and webhook secret rotated under load (key-rotation.ts)
];
