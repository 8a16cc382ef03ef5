// workflows/provider-payment/facts.ts: the named transitions the entity's steps change its state by, those with a
// rule of their own (the others set one field). facts.ts imports nothing of the workflow runtime, so a bare subclass
// runs here without a workflow; Date.now() is a fixed clock (jest's modern fake timers).
import type { ProviderPaymentInput } from '../../../workflows/provider-payment/api';
import { ProviderPaymentFacts } from '../../../workflows/provider-payment/facts';
import { moveKey } from '../../../workflows/provider-payment/knowledge';
import { refundedAfterExpiry } from './entity-fixtures';

const NOW = Date.parse('2026-11-23T10:00:00.000Z');
const MINUTE = 60 * 1000;

/** The facts alone: no handler, no patch, no command. */
class Facts extends ProviderPaymentFacts {
  constructor(input: Partial<ProviderPaymentInput> = {}) {
    super({ providerPaymentId: 'pay_1', ...input });
  }
}

const registration = { paymentKey: 'k1', endpointUrl: null, told: 'EXPIRED' };

beforeEach(() => {
  jest.useFakeTimers({ now: NOW });
});
afterEach(() => {
  jest.useRealTimers();
});

describe('the entity transitions', () => {
  it('lookupWaitsForRunningPayment: a "not yet" takes back its try, the lookup stays pending, asked again later', () => {
    const facts = new Facts({ registrationLookups: 2 });
    facts.lookupTried();
    facts.lookupWaitsForRunningPayment(6 * 60 * MINUTE);
    expect(facts.registrationLookups).toBe(2);
    expect(facts.registrationNotBefore).toBe(NOW + 6 * 60 * MINUTE);
    // the first lookup of a following: no try counted, yet still pending (lookupPending needs one made)
    const first = new Facts();
    first.lookupTried();
    first.lookupWaitsForRunningPayment(6 * 60 * MINUTE);
    expect(first.registrationLookups).toBe(1);
    expect(first.registrationLookedUp).toBe(false);
  });

  it('lookupRetryAfter keeps the try; lookupSettled makes the answer stand', () => {
    const facts = new Facts();
    facts.lookupTried();
    facts.lookupRetryAfter(10 * MINUTE);
    expect([facts.registrationLookups, facts.registrationNotBefore]).toEqual([1, NOW + 10 * MINUTE]);
    facts.lookupSettled();
    expect(facts.registrationLookedUp).toBe(true);
  });

  it('lingerFrom: the linger runs from the first time the payment was seen final, carried over too', () => {
    const facts = new Facts();
    expect(facts.lingerFrom(NOW)).toBe(NOW);
    expect(facts.lingerFrom(NOW + MINUTE)).toBe(NOW);
    expect(facts.terminalSince).toBe(NOW);
    const carried = new Facts({ terminalSince: '2026-11-22T10:00:00.000Z' });
    expect(carried.lingerFrom(NOW)).toBe(Date.parse('2026-11-22T10:00:00.000Z'));
  });

  it('toldMove writes the registration in place: a step holding the entry reads the new told at once', () => {
    const facts = new Facts({ eventsFor: [{ subscriber: 'payment:k1', ...registration }] });
    const held = facts.eventsFor.get('payment:k1')!;
    facts.toldMove('payment:k1', 'EXPIRED+REFUNDED');
    expect(held).toEqual({ ...registration, told: 'EXPIRED+REFUNDED', keyed: true });
    facts.toldMove('payment:other', 'EXPIRED');
    expect([...facts.eventsFor.keys()]).toEqual(['payment:k1']);
  });

  it('sentTo: the subscriber has the version, and its backend the move; one without events only the version', () => {
    const facts = new Facts({
      subscribers: ['payment:k1', 'payment:k2'],
      eventsFor: [{ subscriber: 'payment:k1', ...registration }],
    });
    facts.sentTo('payment:k1', 3, refundedAfterExpiry);
    facts.sentTo('payment:k2', 3, refundedAfterExpiry);
    expect([...facts.forwarded]).toEqual([
      ['payment:k1', 3],
      ['payment:k2', 3],
    ]);
    expect(facts.eventsFor.get('payment:k1')).toEqual({
      ...registration,
      told: moveKey(refundedAfterExpiry),
      keyed: true,
    });
    expect(facts.eventsFor.has('payment:k2')).toBe(false);
  });

  it('subscriberGone: neither a subscriber nor sent anything any more; its registration stays for late moves', () => {
    const facts = new Facts({
      subscribers: ['payment:k1'],
      eventsFor: [{ subscriber: 'payment:k1', ...registration }],
    });
    facts.sentTo('payment:k1', 1, refundedAfterExpiry);
    facts.subscriberGone('payment:k1');
    expect([...facts.subscribers, ...facts.forwarded.keys()]).toEqual([]);
    expect(facts.eventsFor.has('payment:k1')).toBe(true);
  });

  it('registered: a found registration is keyed (its told is a move key), as it came otherwise', () => {
    const facts = new Facts();
    facts.registered('payment:k1', registration);
    expect(facts.eventsFor.get('payment:k1')).toEqual({ ...registration, keyed: true });
  });

  it("ownRegistrations: the entity's own record names every registration but one only visibility named", () => {
    const facts = new Facts({
      eventsFor: [
        { subscriber: 'payment:subscribed', ...registration },
        { subscriber: 'payment:listed', ...registration, foundBy: 'visibility' },
      ],
    });
    facts.registered('payment:from-its-runs', registration);
    facts.registered('payment:listed-now', { ...registration, foundBy: 'visibility' });
    expect(facts.ownRegistrations).toEqual(['payment:subscribed', 'payment:from-its-runs']);
    // carried over as it came: a continued run keeps the mark
    expect(facts.eventsFor.get('payment:listed-now')).toMatchObject({ foundBy: 'visibility' });
  });

  it('refuses a write from outside when compiled (tsc: each line below is an error the compiler must report)', () => {
    const facts = new Facts({ eventsFor: [{ subscriber: 'payment:k1', ...registration }] });
    const writes = (): void => {
      // @ts-expect-error read-only from outside: heard() is the transition
      facts.lastHeardAt = 0;
      // @ts-expect-error read-only from outside: quietReadTaken() is the transition
      facts.quietReads++;
      // @ts-expect-error read-only from outside: lingerFrom(now) is the transition
      facts.terminalSince ??= 0;
      // @ts-expect-error a ReadonlyMap: sentTo() is the transition
      facts.forwarded.set('payment:k1', 1);
      // @ts-expect-error a ReadonlySet: subscriberGone() is the transition
      facts.subscribers.delete('payment:k1');
      const events = facts.eventsFor.get('payment:k1')!;
      // @ts-expect-error a read-only entry: toldMove() is the transition
      events.told = 'EXPIRED';
    };
    expect(typeof writes).toBe('function'); // compiled, never run
  });

  it('confirmAgainAfter holds the next confirming read back; confirmed lets it run at once', () => {
    const facts = new Facts();
    facts.confirmAgainAfter(5 * MINUTE);
    expect(facts.confirmNotBefore).toBe(NOW + 5 * MINUTE);
    facts.confirmed();
    expect(facts.confirmNotBefore).toBe(0);
  });
});
