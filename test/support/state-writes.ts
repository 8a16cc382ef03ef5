// What the "steps write no state" guards look for (test/unit/workflows/*-steps-write-no-state.test.ts): a write to
// `state.<field>` (or deeper) in any of its forms, read line by line with line comments left out.
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface StateWrite {
  what: string;
  pattern: RegExp;
}

/** The writes every workflow's guard looks for; each guard adds those of its own state's shape. */
export const STATE_WRITES: StateWrite[] = [
  { what: 'assignment', pattern: /\bstate(\.\w+)+\s*(=(?![=>])|\?\?=|\|\|=|&&=|\+=|-=|\*=)/ },
  { what: 'increment', pattern: /(\+\+|--)\s*state\.\w+|\bstate(\.\w+)+\s*(\+\+|--)/ },
  { what: 'destructuring assignment', pattern: /\[[^\]]*\bstate\.\w+[^\]]*\]\s*=(?!=)/ },
  {
    what: 'collection change',
    pattern: /\bstate(\.\w+)+\.(set|add|delete|clear|push|pop|shift|unshift|splice|sort|reverse)\(/,
  },
];

/** Each line of `dir/file` that one of `writes` matches, as `<file>:<line> <what>: <the line>`. */
export function writesIn(dir: string, file: string, writes: StateWrite[]): string[] {
  const lines = readFileSync(path.join(dir, file), 'utf8').split('\n');
  return lines.flatMap((line, i) =>
    writes
      .filter(({ pattern }) => pattern.test(line.replace(/\/\/.*$/, '')))
      .map(({ what }) => `${file}:${i + 1} ${what}: ${line.trim()}`),
  );
}
