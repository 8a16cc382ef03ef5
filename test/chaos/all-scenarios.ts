// Every scenario `npm run chaos` runs, in order: crashes, restarts, faults and storms, then the deploys (deploy-scenarios.ts).
import { DEPLOY_SCENARIOS } from './deploy-scenarios';
import { RECEIVER_OUTAGE } from './receiver-outage';
import { SCENARIOS, type Scenario } from './scenarios';

export const ALL_SCENARIOS: Scenario[] = [...SCENARIOS, RECEIVER_OUTAGE, ...DEPLOY_SCENARIOS];
