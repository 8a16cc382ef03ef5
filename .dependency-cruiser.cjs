// The layering of docs/architecture.md ("Layers"), held by `npm run lint` (depcruise). Each layer imports only
// layers below it, and nothing imports in a cycle. From the bottom:
//   src/support, src/security
//                          Node helpers that know nothing of xborder (where the package is installed; which
//                          secrets are published and must never run)
//   src/contract           the service's contract as data (zod only)
//   src/codec, src/telemetry, src/provider, src/sandbox
//                          the payload codec, logging/metrics/tracing, the HTTP client of the service, its emulator
//   workflow APIs          workflows/messages.ts and the other modules callers import (IDs, messages, inputs,
//                          search attributes, memo): what the client, the ingress and the activities share;
//                          src/nexus/service.ts (the Nexus service definition callers' workflows import) beside them
//   activities/            steps with I/O, called by workflows (which import them with `import type` only)
//   workflows/             workflow code (eslint holds its own stricter rules: no I/O, no zod by value)
//   src/client             what backend services import
//   src/ingress, src/nexus, workers/
//                          the webhook door, the Nexus service's handlers, the worker process
//   src/cli                the `xborder` command and the local stack: may import everything
// Tests, scripts and examples sit on top and may import anything.
// The workflow APIs: IDs, messages, inputs, search attributes, memo, each workflow's own api.ts (workflows/<name>/api.ts:
// type name, ID, messages, input/output types, typed helpers), and the pure rules of a payment that callers apply too
// (payment-rules.ts: which payment pulls from an account, what a status means).
// the pure decision modules are shared too: an activity checks what a workflow decides with the same rule
const WORKFLOW_APIS =
  '^workflows/((messages|inputs|search-attributes|entity-memo|entity-front-door|request-fingerprint|types|payment-rules|payment-merge)\\.ts|[^/]+/api\\.ts|internal-event-ids\\.ts|provider-payment/knowledge\\.ts|provider-payment/sweep-decision\\.ts|payment/resolve-rules\\.ts)$';

// The Nexus service definition: what a backend's workflow imports to call xborder (src/nexus/service.ts).
const NEXUS_SERVICE = '^src/nexus/service\\.ts$';

/** A rule: `from` may import nothing in `notTo` (regular expressions on repository paths). */
function layer(name, from, notTo, comment) {
  return { name, comment, severity: 'error', from: { path: from }, to: { path: notTo } };
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle makes load order matter and hides which module owns what.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    layer(
      'support-is-the-floor',
      '^src/(support|security)/',
      '^(src/(?!support/|security/)|workflows/|activities/|workers/)',
      'src/support and src/security know nothing of xborder.',
    ),
    layer(
      'contract-is-pure',
      '^src/contract/',
      '^(src/(?!contract/)|workflows/|activities/|workers/)',
      'src/contract imports zod and itself only.',
    ),
    layer(
      'base-layers-stay-low',
      '^src/(codec|telemetry|provider|sandbox)/',
      '^(src/(client|cli|ingress|nexus)/|workflows/|activities/|workers/)',
      'The codec, telemetry, the provider client and the sandbox are below every Temporal-aware layer.',
    ),
    {
      name: 'workflow-apis-stay-low',
      comment: 'The workflow APIs are what callers import: they never load workflow code, activities or I/O.',
      severity: 'error',
      from: { path: WORKFLOW_APIS },
      to: {
        path: '^(workflows/|activities/|workers/|src/(client|cli|ingress|nexus|provider|sandbox)/)',
        pathNot: WORKFLOW_APIS,
      },
    },
    {
      name: 'nexus-service-stays-low',
      comment:
        "The Nexus service definition runs in callers' workflow bundles: nexus-rpc and the workflow APIs' types only.",
      severity: 'error',
      from: { path: NEXUS_SERVICE },
      to: { path: '^(workflows/|activities/|workers/|src/)', pathNot: [WORKFLOW_APIS, '^src/contract/'] },
    },
    {
      name: 'activities-below-workflows',
      comment: 'Activities may use the workflow APIs (IDs, signals, search attributes), never workflow code.',
      severity: 'error',
      from: { path: '^activities/' },
      to: { path: '^(workflows/|workers/|src/(client|cli|ingress|nexus|sandbox)/)', pathNot: WORKFLOW_APIS },
    },
    {
      name: 'workflows-import-activities-as-types',
      comment: 'Workflow code runs in the bundle: activities are imported with `import type` only.',
      severity: 'error',
      from: { path: '^workflows/' },
      to: { path: '^activities/', dependencyTypesNot: ['type-only', 'type-import'] },
    },
    layer(
      'workflows-below-callers',
      '^workflows/',
      '^(workers/|src/(client|cli|ingress|provider|sandbox)/|src/nexus/(?!service\\.ts$))',
      'Workflow code never imports its callers or I/O.',
    ),
    {
      name: 'client-below-workers',
      comment:
        'src/client is what client-only users load; workflow code only as types (the inputs callers send).',
      severity: 'error',
      from: { path: '^src/client/' },
      // but for the Standard Webhooks code (node:crypto only): verifyXborderEvent checks our outbound events with the
      // very code the ingress checks the provider's webhooks with (docs/outbound-events.md)
      to: {
        path: '^(activities/|workers/|src/(cli|ingress|nexus|sandbox|provider)/)',
        pathNot: '^src/provider/(webhook-signature|errors)\\.ts$',
      },
    },
    {
      name: 'client-uses-workflow-apis',
      severity: 'error',
      from: { path: '^src/client/' },
      to: { path: '^workflows/', pathNot: WORKFLOW_APIS, dependencyTypesNot: ['type-only', 'type-import'] },
    },
    layer(
      'ingress-below-cli',
      '^src/ingress/',
      '^(activities/|workers/|src/(cli|sandbox)/)',
      'The ingress never loads the worker or the CLI.',
    ),
    layer(
      'nexus-handlers-below-cli',
      '^src/nexus/',
      '^(activities/|workers/|src/(cli|ingress|sandbox)/)',
      "The Nexus handlers use the client's functions; the worker serves them.",
    ),
    layer(
      'workers-below-cli',
      '^workers/',
      '^src/(cli|ingress|sandbox)/',
      'The worker process never loads the CLI.',
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(node_modules|dist|\\.tools|\\.data|test/lint-fixtures|test/package/consumer)/' },
  },
};
