// Lambda entry of the serverless worker: `handler` (npm run build:lambda → dist/lambda/worker/index.js).
// Configured from the environment at the cold start (workers/lambda-worker.ts); docs/deployment.md, "Lambda worker".
import { createXborderLambdaWorker } from './lambda-worker';

export const handler = createXborderLambdaWorker(process.env);
