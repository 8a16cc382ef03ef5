// Parses each answer with the contract's schemas and normalises old shapes to the current one, so code above
// the client sees one shape only. spec: Payment (transitional fields until 2026-03-30), Corridor / Rate /
// Account requirement item (legacy shapes). Anything thrown here becomes a ResponseShapeError in the transport.
import { z } from 'zod';
import {
  type Account,
  type AccountRequirement,
  type Corridor,
  type Customer,
  CustomerSchema,
  isBlockchainRail,
  type LegacyRailKey,
  listEnvelope,
  normalizeAccount,
  normalizeCorridor,
  normalizePayment,
  normalizeRate,
  normalizeRequirements,
  type Payment,
  type Rate,
} from '../contract';
import { type FieldIssue, ResponseShapeError } from './errors';
import { type Page } from './pagination';
import { issuesOf } from './response-shape';

export const parsePayment = (json: unknown): Payment => normalizePayment(json);
export const parseCustomer = (json: unknown): Customer => CustomerSchema.parse(json);
export const parseAccount = (json: unknown): Account => normalizeAccount(json);
/** A legacy rate carries per-rail fees; the key is picked from the destination rail asked for. */
export const rateParser =
  (destinationRail: string) =>
  (json: unknown): Rate =>
    normalizeRate(json, legacyRailKey(destinationRail));

function legacyRailKey(rail: string): LegacyRailKey {
  if (rail === 'SWIFT' || rail === 'WIRE') return 'WIRE';
  if (rail === 'CRYPTO' || isBlockchainRail(rail)) return 'CRYPTO';
  return 'LOCAL';
}
export const parseRequirements = (json: unknown): AccountRequirement[] => normalizeRequirements(json);

export const parsePaymentPage = (json: unknown): Page<Payment> => parsePage(json, parsePayment);
export const parseAccountPage = (json: unknown): Page<Account> => parsePage(json, parseAccount);

/** spec: Endpoints, GET /payments/corridors ("object with data: array of corridor objects"); legacy items too. */
const CorridorListSchema = z.looseObject({ data: z.array(z.unknown()) });
export function parseCorridors(json: unknown): Corridor[] {
  // POST /payments/corridors answers "corridors" (not shown): a bare array is accepted as well as { data }.
  const items = Array.isArray(json) ? json : CorridorListSchema.parse(json).data;
  // A legacy corridor expands to one current corridor per fee key (contract normalizeCorridor).
  return parseItems(items, normalizeCorridor, 'data').flat();
}

const AnyListSchema = listEnvelope(z.unknown());

function parsePage<T>(json: unknown, parseItem: (raw: unknown) => T): Page<T> {
  const envelope = AnyListSchema.parse(json);
  return {
    data: parseItems(envelope.data, parseItem, 'data'),
    nextCursor: envelope.pagination.nextCursor,
    limit: envelope.pagination.limit,
  };
}

/** Parses every item and reports every failing one, with paths prefixed by the item's index. */
function parseItems<T>(items: readonly unknown[], parseItem: (raw: unknown) => T, prefix: string): T[] {
  const out: T[] = [];
  const fields: FieldIssue[] = [];
  items.forEach((raw, index) => {
    try {
      out.push(parseItem(raw));
    } catch (thrown) {
      for (const issue of issuesOf(thrown)) {
        fields.push({
          ...issue,
          path: `${prefix}[${index}]${issue.path === '(root)' ? '' : joinPath(issue.path)}`,
        });
      }
    }
  });
  if (fields.length > 0) {
    throw new ResponseShapeError(`${fields.length} item issue(s)`, { fields });
  }
  return out;
}

function joinPath(path: string): string {
  return path.startsWith('[') ? path : `.${path}`;
}
