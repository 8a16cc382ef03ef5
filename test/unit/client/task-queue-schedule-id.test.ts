// src/client/ensure-schedule.ts: the ID of a task queue's own Schedule, when another deployment in the namespace holds
// the default one, must be an ID its runs can be bound under (src/codec/schedule-binding.ts), whatever the task
// queue's name: otherwise the second deployment would get no sweep at all.
import { taskQueueScheduleId } from '../../../src/client/ensure-schedule';
import { scheduleActionWorkflowId } from '../../../src/codec/schedule-binding';

it('names the task queue when a Schedule ID can hold it', () => {
  expect(taskQueueScheduleId('payment-reconcile', 'payments-eu.2')).toBe('payment-reconcile-payments-eu.2');
});

it('hashes a task queue name a Schedule ID cannot hold, one ID per name', () => {
  for (const queue of ['payments/eu', 'payments eu', 'q-2026-01-01T00:00:00Z', 'x'.repeat(300), 'ünïcode']) {
    const id = taskQueueScheduleId('payment-reconcile', queue);
    expect(id).toMatch(/^payment-reconcile-[0-9a-f]{16}$/);
    expect(() => scheduleActionWorkflowId(id)).not.toThrow();
  }
  expect(taskQueueScheduleId('payment-reconcile', 'payments/eu')).not.toBe(
    taskQueueScheduleId('payment-reconcile', 'payments/us'),
  );
});
