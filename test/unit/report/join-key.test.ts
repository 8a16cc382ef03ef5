// The report join's key: its partition and the filter of the workflows' ids (src/report/join-key.ts).
import { joinKeyFilter, partitionOf } from '../../../src/report/join-key';

it('never answers "no" for a key it holds, and rarely "maybe" for one it does not (50,000 keys)', () => {
  const filter = joinKeyFilter();
  for (let i = 0; i < 50_000; i++) filter.add(`pay_${i}`);
  let missed = 0;
  for (let i = 0; i < 50_000; i++) if (!filter.mayHave(`pay_${i}`)) missed++;
  expect(missed).toBe(0);
  let wrong = 0;
  for (let i = 0; i < 50_000; i++) if (filter.mayHave(`other_${i}`)) wrong++;
  expect(wrong / 50_000).toBeLessThan(0.001);
});

it('spreads keys over the partitions, each key always to the same one', () => {
  const sizes = new Array<number>(128).fill(0);
  for (let i = 0; i < 128_000; i++) sizes[partitionOf(`pay_${i}`, 128)]!++;
  expect(Math.min(...sizes)).toBeGreaterThan(800);
  expect(Math.max(...sizes)).toBeLessThan(1_200);
  expect(partitionOf('pay_42', 128)).toBe(partitionOf('pay_42', 128));
});
