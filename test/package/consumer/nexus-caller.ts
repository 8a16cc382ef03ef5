// What a backend that is itself a Temporal application imports in its workflow code to call xborder over Nexus
// (docs/backend.md, "Nexus"): the service definition from `xborder/nexus`, nothing else of the package.
// test/package/pack-install.test.ts compiles it against the installed package's declarations, then runs it.
import {
  XBORDER_NEXUS_ENDPOINT,
  XBORDER_NEXUS_FAILURE_TYPES,
  xborderFailureType,
  xborderNexusService,
  type PaymentRef,
} from 'xborder/nexus';

const ref: PaymentRef = { paymentKey: 'consumer' };
const failure = { cause: { type: XBORDER_NEXUS_FAILURE_TYPES.CANCEL_REFUSED } };
console.log(
  JSON.stringify({
    service: xborderNexusService.name,
    endpoint: XBORDER_NEXUS_ENDPOINT,
    operations: Object.keys(xborderNexusService.operations).sort(),
    failureType: xborderFailureType(failure),
    ref: ref.paymentKey,
    workerLoaded: Object.keys(require.cache).some((file) => file.includes('@temporalio/worker')),
  }),
);
