// No personal data in plaintext in Temporal. Runs the e2e flows (the demo transfer of npm start, a
// business customer's onboarding, a payment whose payout fails) on the real stack with the codec, then reads
// every event of every workflow's RAW history from the server (no codec on this path) and the raw description
// (memo, search attributes): none of the flows' personal data appears in any payload, failure, memo, search
// attribute or ID. With XBORDER_RECORD_HISTORIES=1 it also adds the encrypted-* replay histories (never
// overwriting one).
import got from 'got';
import { temporal } from '@temporalio/proto';
import type { LocalStack } from '../../src/cli/stack';
import { runDemoTransfer } from '../../src/cli/demo';
import { demoCustomer } from '../../src/cli/demo-data';
import { startPayment } from '../../src/client/payments';
import {
  ONBOARD_CUSTOMER_WORKFLOW_TYPE,
  onboardCustomerWorkflowId,
} from '../../workflows/onboard-customer/api';
import { recordHistories } from '../support/history-recorder';
import { eventually, startTestStack, uniqueKey } from '../e2e/stack-support';

jest.setTimeout(180_000);

const demo = demoCustomer() as {
  email: string;
  phone: string;
  birthDate: string;
  accountPurpose: string;
  address: { line1: string };
};
const business = {
  type: 'BUSINESS',
  name: 'Quokka Scan Imports Ltd',
  description: 'Imports of specialty coffee from small farms for retail partners',
  email: 'finance@quokka-scan.example',
  phone: '+12125550177',
  accountPurpose: 'Paying coffee suppliers abroad',
  address: {
    line1: '77 Wallaby Lane',
    city: 'New York',
    postalCode: '10001',
    stateRegionOrProvince: 'NY',
    countryCode: 'US',
  },
  estimatedAnnualRevenueUSD: 'ONE_MILLION_TO_TEN_MILLION',
  expectedMonthlyPaymentsUSD: 250000,
  operatesInProhibitedCountries: false,
  highRiskActivities: [],
  conductsMoneyServices: false,
  actingAsIntermediary: false,
  sourceOfFundsDescription: 'Revenue from quokka coffee sales',
  documents: [
    { type: 'PROOF_OF_NATURE_OF_BUSINESS', fileUrl: 'https://files.example/quokka/invoices.pdf' },
    { type: 'PROOF_OF_ADDRESS', fileUrl: 'https://files.example/quokka/lease.pdf' },
    { type: 'PROOF_OF_SOURCE_OF_FUNDS', fileUrl: 'https://files.example/quokka/statement.pdf' },
  ],
  associatedPersons: [
    {
      firstName: 'Wilhelmina',
      lastName: 'Quokkasson',
      title: 'CEO',
      countryCode: 'US',
      birthDate: '1981-02-03',
    },
  ],
};
const FROM_ADDRESS = '0x2222222222222222222222222222222222222222';

/** The personal data of the three flows: none of it may appear in plaintext anywhere in Temporal. */
const PII = [
  demo.email,
  demo.phone,
  demo.birthDate,
  demo.accountPurpose,
  demo.address.line1,
  business.name,
  business.email,
  business.phone,
  business.address.line1,
  business.sourceOfFundsDescription,
  'Quokkasson',
  '1981-02-03',
  FROM_ADDRESS,
];

let stack: LocalStack;
const toRecord: Array<[scenario: string, workflowIds: string[]]> = [];
beforeAll(async () => {
  stack = await startTestStack({ sandbox: { demoData: true, quoteValidityMs: 8_000 } });
});
afterAll(async () => {
  for (const [scenario, ids] of toRecord)
    await recordHistories(stack.client, stack.temporal.address, scenario, ids);
  await stack?.close();
});

interface ScanCounts {
  workflows: number;
  events: number;
  payloads: number;
  encrypted: number;
  searchAttributes: number;
  patchMarkers: number;
  localActivityMarkers: number;
  hits: string[];
}

/** Every object with `data` bytes and a `metadata` map is a payload; search attributes are reported apart. */
function countPayloads(value: unknown, counts: ScanCounts, inSearchAttributes = false): void {
  if (!value || typeof value !== 'object' || value instanceof Uint8Array) return;
  const record = value as Record<string, unknown>;
  if (record.data instanceof Uint8Array && record.metadata && typeof record.metadata === 'object') {
    if (inSearchAttributes) counts.searchAttributes += 1;
    else counts.payloads += 1;
    const encoding = (record.metadata as Record<string, Uint8Array | undefined>).encoding;
    if (encoding && Buffer.from(encoding).toString() === 'binary/encrypted') counts.encrypted += 1;
    return;
  }
  for (const [key, child] of Object.entries(record))
    countPayloads(child, counts, inSearchAttributes || key === 'searchAttributes');
}

/**
 * The marker `patched()` records is written by the SDK's core, past the payload codec: its one
 * payload is `{"id": <patch id>, "deprecated": bool}` in plaintext. It holds no data of ours, which this checks.
 */
function isPatchMarker(event: temporal.api.history.v1.IHistoryEvent): boolean {
  const marker = event.markerRecordedEventAttributes;
  if (marker?.markerName !== 'core_patch') return false;
  for (const payloads of Object.values(marker.details ?? {})) {
    for (const payload of payloads.payloads ?? []) {
      const parsed = JSON.parse(Buffer.from(payload.data ?? []).toString()) as Record<string, unknown>;
      expect(Object.keys(parsed).sort()).toEqual(['deprecated', 'id']);
      expect(parsed.id).toMatch(/^[a-z0-9-]+$/);
    }
  }
  return true;
}

/**
 * The marker of a local activity (getRate) holds two payloads: `result`, ours, encrypted by the codec
 * like any other (counted below), and `data`, written by the SDK's core past the codec in plaintext: the call's
 * bookkeeping (sequence, attempt, activity type, times), no data of ours, which this checks. Returns the event
 * with `data` left out, for the usual count.
 */
function withoutLocalActivityBookkeeping(
  event: temporal.api.history.v1.IHistoryEvent,
  counts: ScanCounts,
): temporal.api.history.v1.IHistoryEvent {
  const marker = event.markerRecordedEventAttributes;
  if (marker?.markerName !== 'core_local_activity') return event;
  counts.localActivityMarkers += 1;
  for (const payload of marker.details?.data?.payloads ?? []) {
    const parsed = JSON.parse(Buffer.from(payload.data ?? []).toString()) as Record<string, unknown>;
    const allowed = [
      'activity_id',
      'activity_type',
      'attempt',
      'backoff',
      'complete_time',
      'original_schedule_time',
      'seq',
    ];
    expect(Object.keys(parsed).filter((k) => !allowed.includes(k))).toEqual([]);
    expect(parsed.activity_type).toMatch(/^[A-Za-z]+$/);
  }
  const { data: _bookkeeping, ...details } = marker.details ?? {};
  return { ...event, markerRecordedEventAttributes: { ...marker, details } };
}

function scanBytes(where: string, bytes: Uint8Array, counts: ScanCounts) {
  const buffer = Buffer.from(bytes);
  for (const secret of PII)
    if (buffer.includes(Buffer.from(secret, 'utf8'))) counts.hits.push(`${secret} in ${where}`);
}

async function scanNamespace(): Promise<ScanCounts> {
  const { workflowService } = stack.client;
  const namespace = stack.namespace;
  const counts: ScanCounts = {
    workflows: 0,
    events: 0,
    payloads: 0,
    encrypted: 0,
    searchAttributes: 0,
    patchMarkers: 0,
    localActivityMarkers: 0,
    hits: [],
  };
  const executions: temporal.api.common.v1.IWorkflowExecution[] = [];
  let nextPageToken: Uint8Array | undefined;
  do {
    const page = await workflowService.listWorkflowExecutions({ namespace, pageSize: 100, nextPageToken });
    for (const info of page.executions ?? []) {
      executions.push(info.execution!);
      // the visibility record: IDs, memo, search attributes
      scanBytes(
        `visibility of ${info.execution!.workflowId}`,
        temporal.api.workflow.v1.WorkflowExecutionInfo.encode(info).finish(),
        counts,
      );
      countPayloads({ memo: info.memo, searchAttributes: info.searchAttributes }, counts);
    }
    nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
  } while (nextPageToken);
  for (const execution of executions) {
    counts.workflows += 1;
    const described = await workflowService.describeWorkflowExecution({ namespace, execution });
    scanBytes(
      `description of ${execution.workflowId}`,
      temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse.encode(described).finish(),
      counts,
    );
    let token: Uint8Array | undefined;
    do {
      const page = await workflowService.getWorkflowExecutionHistory({
        namespace,
        execution,
        nextPageToken: token,
      });
      for (const event of page.history?.events ?? []) {
        counts.events += 1;
        scanBytes(
          `event ${String(event.eventId)} (${temporal.api.enums.v1.EventType[event.eventType!]}) of ${execution.workflowId}`,
          temporal.api.history.v1.HistoryEvent.encode(event).finish(),
          counts,
        );
        if (isPatchMarker(event))
          counts.patchMarkers += 1; // Core writes it in plaintext: a patch id only (checked there)
        else countPayloads(withoutLocalActivityBookkeeping(event, counts), counts);
      }
      token = page.nextPageToken?.length ? page.nextPageToken : undefined;
    } while (token);
  }
  return counts;
}

it('stores none of the personal data of the e2e flows in plaintext: payloads, failures, memo, search attributes, IDs', async () => {
  // 1. the demo transfer of npm start (individual KYC, her BRL account, a payment to COMPLETED)
  const demoRun = await runDemoTransfer(stack, { log: () => undefined, uiLink: (id) => id });
  expect(demoRun.outcome).toBe('COMPLETED');
  toRecord.push(['encrypted-demo', demoRun.workflowIds]);

  // 2. a business customer's onboarding (KYB: company, associated person, documents)
  const customerKey = uniqueKey('scan-business');
  const onboarding = await stack.client.workflow.start(ONBOARD_CUSTOMER_WORKFLOW_TYPE, {
    taskQueue: stack.taskQueue,
    workflowId: onboardCustomerWorkflowId(customerKey),
    args: [{ customerKey, customer: business }],
  });
  await onboarding.result();
  toRecord.push(['encrypted-business', [onboarding.workflowId]]);

  // 3. a payment whose payout fails (a failure travels through the history)
  const paymentKey = uniqueKey('scan-fail');
  const started = await startPayment(
    stack.client,
    {
      paymentKey,
      request: {
        customerId: 'cus_demo_individual',
        source: { currencyCode: 'USDC', amount: 100, rail: 'POLYGON', fromAddress: FROM_ADDRESS },
        destination: { currencyCode: 'BRL', rail: 'PIX', accountId: 'acc_demo_brl_bank' },
        reference: 'FAIL:INVALID_EXTERNAL_ACCOUNT_NUMBER',
        paymentReason: 'PERSONAL_TRANSFERS',
      },
    },
    { taskQueue: stack.taskQueue },
  );
  if (started.created.outcome !== 'CREATED') throw new Error('payment not created');
  await got.post(`${stack.sandbox.url}/sandbox/payments/${started.created.providerPaymentId}/fund`, {
    headers: stack.sandbox.controlHeaders,
    json: {},
  });
  expect(await started.result()).toMatchObject({
    outcome: 'FAILED',
    code: 'INVALID_EXTERNAL_ACCOUNT_NUMBER',
  });
  toRecord.push(['encrypted-payout-failed', [started.workflowId]]);

  // Visibility is eventually consistent: wait until it lists every workflow the flows ran.
  const expected = new Set([...demoRun.workflowIds, onboarding.workflowId, started.workflowId]);
  await eventually('visibility to list every workflow of the flows', async () => {
    const listed = new Set<string>();
    for await (const w of stack.client.workflow.list()) listed.add(w.workflowId);
    return [...expected].every((id) => listed.has(id)) ? true : null;
  });

  const counts = await scanNamespace();
  console.log(
    `PII scan: ${counts.workflows} workflows, ${counts.events} events, ${counts.payloads} payloads (${counts.encrypted} encrypted), ${counts.patchMarkers} patch markers, ${counts.localActivityMarkers} local activity markers, ` +
      `${counts.searchAttributes} search attribute values, ${PII.length} PII strings, hits ${counts.hits.length}`,
  );
  expect(counts.hits).toEqual([]);
  expect(counts.workflows).toBeGreaterThanOrEqual(expected.size);
  expect(counts.payloads).toBeGreaterThan(50);
  // Every payload except search attributes (indexed by the server, so never encrypted) is encrypted.
  expect(counts.encrypted).toBe(counts.payloads);
});
