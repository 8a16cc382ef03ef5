// The JSON logger and its redaction (no secrets, no personal data in logs).
import { ApplicationFailure } from '@temporalio/common';
import { createJsonLogger, logLevelFromEnv } from '../../src/telemetry/logger';
import { REDACTED, isSensitiveKey, redact, redactText } from '../../src/telemetry/redact';

function capture(level?: 'DEBUG' | 'INFO' | 'WARN') {
  const lines: string[] = [];
  const logger = createJsonLogger({
    level,
    write: (l) => lines.push(l),
    now: () => new Date('2026-11-21T12:00:00Z'),
    base: { service: 'test' },
  });
  return { logger, lines, entries: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('createJsonLogger', () => {
  it('prints one JSON line with time, level, message, base and meta fields', () => {
    const { logger, lines, entries } = capture();
    logger.info('payment created', { workflowId: 'payment:k1', amount: 100 });
    expect(lines).toHaveLength(1);
    expect(entries()[0]).toEqual({
      service: 'test',
      workflowId: 'payment:k1',
      amount: 100,
      time: '2026-11-21T12:00:00.000Z',
      level: 'INFO',
      message: 'payment created',
    });
  });

  it('prints names, emails, account numbers and API keys redacted, at any depth', () => {
    const { logger, lines, entries } = capture();
    logger.warn(
      'customer refused: contact ana.lima@example.com, account 000123456789, header X-Api-Key: sk_live_9f8e7d',
      {
        customer: {
          firstName: 'Ana',
          lastName: 'Lima',
          email: 'ana.lima@example.com',
          address: { street: 'Rua A 1' },
        },
        destination: { bank: { accountNumber: '000123456789', iban: 'DE89370400440532013000' } },
        headers: { 'x-api-key': 'sk_live_9f8e7d', 'content-type': 'application/json' },
        apiKey: 'sk_live_9f8e7d',
        webhookSecret: 'whsec_1',
        note: 'paid to DE89370400440532013000 by card 4111 1111 1111 1111',
        workflowId: 'customer:k1',
        namespace: 'default',
      },
    );
    const e = entries()[0]!;
    expect(e.customer).toEqual({
      firstName: REDACTED,
      lastName: REDACTED,
      email: REDACTED,
      address: REDACTED,
    });
    expect(e.destination).toEqual({ bank: { accountNumber: REDACTED, iban: REDACTED } });
    expect(e.headers).toEqual({ 'x-api-key': REDACTED, 'content-type': 'application/json' });
    expect(e.apiKey).toBe(REDACTED);
    expect(e.webhookSecret).toBe(REDACTED);
    expect(e.note).toBe(`paid to ${REDACTED} by card ${REDACTED}`);
    expect(e.message).toBe(
      `customer refused: contact ${REDACTED}, account ${REDACTED}, header X-Api-Key: ${REDACTED}`,
    );
    expect(e).toMatchObject({ workflowId: 'customer:k1', namespace: 'default' });
    for (const secret of [
      'Ana',
      'Lima',
      'ana.lima@example.com',
      '000123456789',
      'sk_live_9f8e7d',
      'whsec_1',
      'DE8937',
      '4111',
    ]) {
      expect(lines[0]).not.toContain(secret);
    }
  });

  it('keeps errors to name, message (redacted) and type', () => {
    const { logger, entries } = capture();
    const failure = ApplicationFailure.create({
      type: 'VALIDATION_ERROR',
      message: 'email bob@example.com is a team alias',
    });
    logger.error('activity failed', { error: failure });
    expect(entries()[0]!.error).toEqual({
      name: 'ApplicationFailure',
      message: `email ${REDACTED} is a team alias`,
      type: 'VALIDATION_ERROR',
    });
  });

  it('drops entries below its level; child loggers add fields', () => {
    const { logger, entries } = capture('WARN');
    logger.info('not shown');
    logger.debug('not shown');
    logger.child({ component: 'ingress' }).warn('shown', { eventId: 'evt_1' });
    expect(entries()).toEqual([
      expect.objectContaining({ message: 'shown', component: 'ingress', eventId: 'evt_1', level: 'WARN' }),
    ]);
  });

  it('survives circular and bigint meta', () => {
    const { logger, entries } = capture();
    const loop: Record<string, unknown> = { id: 1 };
    loop.self = loop;
    logger.info('odd meta', { loop, big: BigInt(12) });
    expect(entries()[0]).toMatchObject({ loop: { id: 1, self: '[circular]' }, big: '12' });
  });
});

describe('redaction rules', () => {
  it('knows the sensitive keys, whatever their case or separators, and leaves operational ones', () => {
    for (const k of [
      'name',
      'accountHolderName',
      'EMAIL',
      'senderEmail',
      'account_number',
      'X-Api-Key',
      'apiKey',
      'token',
      'taskToken',
      'iban',
      'pixCode',
      'dateOfBirth',
    ]) {
      expect([k, isSensitiveKey(k)]).toEqual([k, true]);
    }
    for (const k of [
      'namespace',
      'workflowId',
      'workflowType',
      'activityType',
      'taskQueue',
      'status',
      'currencyCode',
      'rail',
      'amount',
    ]) {
      expect([k, isSensitiveKey(k)]).toEqual([k, false]);
    }
  });

  it('leaves dates, UUIDs, workflow IDs and amounts in text alone', () => {
    const text =
      'payment:k1 run 12345678-1234-1234-1234-123456789012 at 2026-11-21T12:00:00Z for 1000.50 USD';
    expect(redactText(text)).toBe(text);
  });

  it('masks Bearer tokens and key=value secrets', () => {
    expect(redactText('Authorization: Bearer abc.def-ghi')).not.toContain('abc.def');
    expect(redactText('apiKey=sk_1 password: hunter2')).toBe(`apiKey=${REDACTED} password: ${REDACTED}`);
  });

  it('does not mask null or absent values (their absence is useful to see)', () => {
    expect(redact({ email: null, name: undefined })).toEqual({ email: null, name: undefined });
  });
});

describe('logLevelFromEnv', () => {
  it('reads XBORDER_LOG_LEVEL, default INFO, and refuses unknown levels', () => {
    expect(logLevelFromEnv({})).toBe('INFO');
    expect(logLevelFromEnv({ XBORDER_LOG_LEVEL: 'debug' })).toBe('DEBUG');
    expect(() => logLevelFromEnv({ XBORDER_LOG_LEVEL: 'LOUD' })).toThrow(/XBORDER_LOG_LEVEL must be one of/);
  });
});
