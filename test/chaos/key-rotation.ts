// Keys rotated under load (docs/codec.md, "Rotating keys"; docs/deployment.md): two workers and two ingress
// processes (replica-set.ts) while payments flow, and an operator rolls both secrets in three steps, restarting the
// processes one by one with the new configuration each time (the backend's client last):
//   1. the new payload key K2 added as decrypt-only everywhere; the ingresses accept the new webhook secret W2 beside W1;
//   2. the sandbox (the service's dashboard) signs with W2; K2 made current everywhere, K1 kept to decrypt;
//   3. W1 dropped from the ingresses.
// Checks (besides the common ones): payloads of the run's payments were written under both keys and each still
// decodes — in the worker (a query replays the whole history), the CLI (`xborder status --json` in a process of its
// own, with the final keys) and the codec server's /decode the UI calls — and no webhook attempt was refused (4xx).
// Every key and secret is generated here, at run time.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import got from 'got';
import type { Payload } from '@temporalio/common';
import { codecDataConverter } from '../../src/codec/data-converter';
import { staticKeyProvider, type CodecKeyProvider, type CodecKeysJson } from '../../src/codec/keys';
import { startCodecServer } from '../../src/codec/server';
import { providerPaymentWorkflowId } from '../../workflows/provider-payment/api';
import {
  attemptsByUrl,
  planReplicas,
  type DeliveryView,
  type ReplicaPlan,
  type ReplicaSet,
} from './replica-set';
import type { Scenario, ScenarioContext } from './scenarios';
import type { PaymentRun } from './workload';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ROOT = path.resolve(__dirname, '..', '..');
const KEY_ID = 'encryption-key-id';

interface Rotation {
  replicas: ReplicaPlan;
  set?: ReplicaSet;
  oldKey: string;
  newKey: string;
  /** the configuration deployed now: what a process started now reads */
  deployed: { codec: CodecKeysJson; secrets: string[] };
  /** the backend's client: the configuration it was last (re)started with */
  client: CodecKeysJson;
  newSecret: string;
  gate: number;
  steps: string[];
}
// One run at a time (runChaos runs scenarios one after the other).
let current: Rotation | undefined;

const codecEnv = (keys: CodecKeysJson) => ({
  XBORDER_CODEC_KEYS: JSON.stringify(keys),
  XBORDER_CODEC_KEYS_FILE: undefined,
});

/** A key provider over whatever the client was last started with (the backend's restart, in-process). */
function clientKeys(rotation: () => Rotation): CodecKeyProvider {
  const now = () => staticKeyProvider(rotation().client);
  return {
    currentKey: () => now().currentKey(),
    keyById: (id) => now().keyById(id),
    knownKeyIds: () => now().knownKeyIds(),
  };
}

/** Every process restarted one by one with the deployed configuration: workers, ingresses, then the backend's client. */
async function roll(
  ctx: ScenarioContext,
  r: Rotation,
  what: string,
  processes: { workers: boolean; afterFirstWorker?: () => void },
): Promise<void> {
  ctx.log(`key-rotation: ${what} (${ctx.launched()} payments started): restarting one by one`);
  if (processes.workers) {
    for (const [i, w] of r.set!.workers.entries()) {
      await w.restart();
      await w.ready();
      if (i === 0) processes.afterFirstWorker?.();
    }
  }
  for (const ingress of r.set!.ingresses) await ingress.restart();
  r.client = structuredClone(r.deployed.codec);
  r.steps.push(what);
  ctx.log(`key-rotation: ${what}: done`);
}

async function gate(ctx: ScenarioContext, index: number): Promise<void> {
  while (index >= Math.ceil(ctx.payments * current!.gate) && !ctx.done()) await sleep(200);
}
async function opened(ctx: ScenarioContext, fraction: number): Promise<void> {
  current!.gate = Math.max(current!.gate, fraction);
  while (ctx.launched() < Math.ceil(ctx.payments * fraction) && !ctx.done()) await sleep(200);
}

/** Every encrypted payload in a history (raw, as Temporal stores it), with its key id. */
function encryptedPayloads(
  node: unknown,
  found: Array<{ keyId: string; payload: Payload }> = [],
): Array<{ keyId: string; payload: Payload }> {
  if (!node || typeof node !== 'object') return found;
  const metadata = (node as { metadata?: Record<string, Uint8Array> }).metadata;
  const id = metadata?.[KEY_ID];
  if (id && (node as Payload).data)
    found.push({ keyId: Buffer.from(id).toString('utf8'), payload: node as Payload });
  else
    for (const value of Object.values(node))
      if (value && typeof value === 'object') encryptedPayloads(value, found);
  return found;
}

async function checkRotation(
  ctx: ScenarioContext,
  runs: PaymentRun[],
): Promise<{ problems: string[]; notes: string }> {
  const r = current!;
  const problems: string[] = [];
  // 1. No webhook refused by either ingress while the secret rotated.
  const deliveries = (
    await got(`${ctx.stack.sandbox.url}/sandbox/webhooks`, {
      headers: ctx.stack.sandbox.controlHeaders,
    }).json<{ data: DeliveryView[] }>()
  ).data;
  const { byUrl } = attemptsByUrl(deliveries);
  const refused = Object.values(byUrl).reduce((n, row) => n + row.refused4xx, 0);
  if (refused > 0)
    problems.push(`${refused} webhook attempts refused (4xx) by the ingresses during the rotation`);
  if (r.steps.length < 3) problems.push(`the rotation did not finish: ${r.steps.join(', ') || 'no step'}`);

  // 2. Payloads under each key in the run's histories.
  const byKey: Record<string, number> = {};
  const samples = new Map<string, Payload>();
  const bothKeys: PaymentRun[] = [];
  let entitiesWithBoth = 0;
  const keysIn = async (workflowId: string): Promise<Set<string>> => {
    const history = await ctx.stack.client.workflow.getHandle(workflowId).fetchHistory();
    const keys = new Set<string>();
    for (const { keyId, payload } of encryptedPayloads(history)) {
      byKey[keyId] = (byKey[keyId] ?? 0) + 1;
      keys.add(keyId);
      // one sample per key for the codec server, preferring the payments' (a payment's input carries personal data)
      if (!samples.has(keyId)) samples.set(keyId, payload);
    }
    return keys;
  };
  const spans = (keys: Set<string>) => keys.has(r.oldKey) && keys.has(r.newKey);
  for (const run of runs.filter((x) => x.createdAt !== null)) {
    if (spans(await keysIn(run.workflowId))) bothKeys.push(run);
    if (
      run.providerPaymentId &&
      spans(await keysIn(providerPaymentWorkflowId(run.providerPaymentId)).catch(() => new Set<string>()))
    )
      entitiesWithBoth++;
  }
  for (const key of [r.oldKey, r.newKey])
    if (!byKey[key])
      problems.push(
        `no payload written under ${key === r.oldKey ? 'the old' : 'the new'} key: the rotation proved nothing`,
      );
  if (bothKeys.length + entitiesWithBoth === 0)
    problems.push('no history holds payloads under both keys: no workflow ran across the rotation');

  // 3. The codec server the UI calls, started with the final keys: /decode of a payload under each key.
  const token = randomBytes(24).toString('base64url');
  const codecServer = await startCodecServer({
    codecs: codecDataConverter(staticKeyProvider(r.deployed.codec)).payloadCodecs ?? [],
    tokens: [token],
    port: 0,
  });
  let decodedByServer = 0;
  try {
    for (const [keyId, payload] of samples) {
      const body = {
        payloads: [
          {
            metadata: Object.fromEntries(
              Object.entries(payload.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')]),
            ),
            data: Buffer.from(payload.data!).toString('base64'),
          },
        ],
      };
      const answer = await got.post(`${codecServer.url}/decode`, {
        json: body,
        headers: { authorization: `Bearer ${token}` },
        throwHttpErrors: false,
      });
      const decoded =
        answer.statusCode === 200
          ? (JSON.parse(answer.body) as { payloads: Array<{ metadata: Record<string, string> }> }).payloads[0]
          : undefined;
      const encoding = decoded ? Buffer.from(decoded.metadata.encoding ?? '', 'base64').toString('utf8') : '';
      if (!decoded || encoding === 'binary/encrypted')
        problems.push(`codec server /decode of a payload under ${keyId}: HTTP ${answer.statusCode}`);
      else decodedByServer++;
    }
  } finally {
    await codecServer.close();
  }

  // 4. The CLI in a process of its own with the final keys: a payment's state (a query: the worker replays the history).
  const cliRuns = [...bothKeys.slice(0, 2), runs.find((x) => x.createdAt !== null)!].filter(Boolean);
  let cliRead = 0;
  for (const run of cliRuns) {
    const env = {
      ...process.env,
      TEMPORAL_ADDRESS: ctx.engine.address,
      TEMPORAL_NAMESPACE: ctx.engine.namespace,
      ...codecEnv(r.deployed.codec),
    };
    delete env.XBORDER_CODEC_KEYS_FILE;
    const result = await promisify(execFile)(
      process.execPath,
      [path.join(ROOT, 'bin', 'xborder.js'), 'status', run.key, '--json'],
      { cwd: ROOT, env, timeout: 120_000 },
    ).catch((error: { stdout?: string; stderr?: string; code?: number }) => ({
      stdout: error.stdout ?? '',
      stderr: `exit ${error.code}: ${error.stderr ?? ''}`,
    }));
    let state: { workflowId?: string; outcome?: { outcome?: string } | null } | undefined;
    try {
      state = JSON.parse(result.stdout) as typeof state;
    } catch {
      state = undefined;
    }
    if (state?.workflowId !== run.workflowId || (run.outcome && state.outcome?.outcome !== run.outcome)) {
      problems.push(
        `xborder status ${run.key}: ${state ? `outcome ${state.outcome?.outcome}, want ${run.outcome}` : String(result.stderr).slice(0, 300)}`,
      );
    } else cliRead++;
  }
  const keys = Object.entries(byKey).map(
    ([k, n]) => `${k === r.oldKey ? 'old' : k === r.newKey ? 'new' : k} ${n}`,
  );
  return {
    problems,
    notes: `steps: ${r.steps.join('; ')}; payloads by key: ${keys.join(', ')}; ${bothKeys.length} payments and ${entitiesWithBoth} entities with payloads under both keys; codec server decoded ${decodedByServer}/${samples.size} keys' samples; xborder status read ${cliRead}/${cliRuns.length}; ${refused} webhook attempts refused`,
  };
}

export const KEY_ROTATION_SCENARIO: Scenario = {
  name: 'key-rotation',
  what: 'two workers and two ingresses; the payload key and the webhook secret rotated mid-traffic in three steps (new added, new current, old secret dropped), every process restarted one by one each step',
  engines: ['dev-server'],
  // 1.5–2.5 min at the short profile on this machine, both together over CI's 3-minute allowance (docs/chaos.md)
  shortProfile: false,
  async plan() {
    const runId = randomBytes(3).toString('hex');
    const [oldKey, newKey] = [`chaos-${runId}-k1`, `chaos-${runId}-k2`];
    const oldMaterial = randomBytes(32).toString('base64');
    const [oldSecret, newSecret] = [
      `whsec_${randomBytes(24).toString('base64')}`,
      `whsec_${randomBytes(24).toString('base64')}`,
    ];
    const first: CodecKeysJson = { current: oldKey, keys: { [oldKey]: oldMaterial } };
    const rotation: Omit<Rotation, 'replicas'> = {
      oldKey,
      newKey,
      deployed: { codec: first, secrets: [oldSecret] },
      client: structuredClone(first),
      newSecret,
      gate: 0,
      steps: [],
    };
    const replicas = await planReplicas({
      webhookSecret: oldSecret,
      dataConverter: codecDataConverter(clientKeys(() => current!)),
      workerEnv: () => codecEnv(current!.deployed.codec),
      ingressEnv: () => ({
        ...codecEnv(current!.deployed.codec),
        XBORDER_WEBHOOK_SECRETS: current!.deployed.secrets.join(','),
      }),
    });
    current = { ...rotation, replicas };
    return replicas.plan;
  },
  async setup(ctx) {
    current!.set = await current!.replicas.start(ctx);
  },
  beforePayment: gate,
  async disrupt(ctx) {
    const r = current!;
    await opened(ctx, 0.3);
    r.deployed = {
      codec: {
        current: r.oldKey,
        keys: { ...r.deployed.codec.keys, [r.newKey]: randomBytes(32).toString('base64') },
      },
      secrets: [...r.deployed.secrets, r.newSecret],
    };
    // The traffic goes on while the two workers run different configurations (one restarted, one not yet).
    await roll(ctx, r, 'new key decrypt-only, both webhook secrets', {
      workers: true,
      afterFirstWorker: () => (r.gate = 0.45),
    });
    await opened(ctx, 0.55);
    await got.put(`${ctx.stack.sandbox.url}/sandbox/webhook-secret`, {
      headers: ctx.stack.sandbox.controlHeaders,
      json: { secret: r.newSecret },
    });
    ctx.log('key-rotation: the sandbox signs with the new webhook secret');
    r.deployed = { ...r.deployed, codec: { ...r.deployed.codec, current: r.newKey } };
    await roll(ctx, r, 'new key current, old kept to decrypt', {
      workers: true,
      afterFirstWorker: () => (r.gate = 0.7),
    });
    await opened(ctx, 0.8);
    r.deployed = { ...r.deployed, secrets: [r.newSecret] };
    await roll(ctx, r, 'old webhook secret dropped', { workers: false });
    r.gate = 1;
    return r.steps.length;
  },
  check: checkRotation,
};
