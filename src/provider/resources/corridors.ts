// spec: Endpoints, GET /payments/corridors and POST /payments/corridors (payload not shown).
import { type Corridor } from '../../contract';
import { type CreateOptions } from '../options';
import { parseCorridors } from '../parsers';
import { beforeCreate, type ClientContext } from './context';

export interface CorridorsApi {
  /** Every corridor, legacy items normalised to the current shape. */
  list(): Promise<Corridor[]>;
  /** POST /payments/corridors. The payload is not shown in the spec: it is sent as given (docs/spec-gaps.md). */
  create(body: Record<string, unknown>, options: CreateOptions): Promise<Corridor[]>;
}

export function createCorridorsApi(ctx: ClientContext): CorridorsApi {
  return {
    list: () => ctx.transport.request({ method: 'GET', path: '/payments/corridors', parse: parseCorridors }),
    async create(body, options) {
      beforeCreate(ctx, null, body, options, 'POST /v1/payments/corridors');
      return ctx.transport.request({
        method: 'POST',
        path: '/payments/corridors',
        body,
        idempotencyKey: options.idempotencyKey,
        parse: parseCorridors,
      });
    },
  };
}
