// A few zod-like parsers in plain TypeScript, for code that runs inside workflows. Zod is kept out of the
// workflow bundle (docs/performance.md: every cached workflow evaluates the bundle's modules, and
// each zod 4 schema instance costs ~50 closures), so the shapes a workflow must check at workflow time are
// written with these instead. They parse like zod 4 does — same accept/reject, same output (z.object strips
// unknown keys, z.looseObject keeps them, a union returns its first matching option) and the same issue
// messages as zod's English locale for the checks used — and each plain schema is tested against its zod
// twin (test/unit/plain-schema.test.ts). No zod import here, not even a type.

export type IssuePath = (string | number)[];
export interface PlainIssue {
  path: IssuePath;
  message: string;
  /** a failed check (length, range, format): zod goes on; a type or value issue aborts (zod's `continue`) */
  continue?: boolean;
}
/** Returns the parsed value; pushes issues (the value is then meaningless). */
export type PlainSchema<T = unknown> = (value: unknown, path: IssuePath, issues: PlainIssue[]) => T;

/** zod 4's `parsedType` (locales/en): how a received value is named in "expected X, received Y". */
export function receivedType(value: unknown): string {
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : 'number';
  if (typeof value === 'object') {
    if (Array.isArray(value)) return 'array';
    if (value === null) return 'null';
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && (value as { constructor?: { name?: string } }).constructor)
      return String((value as { constructor: { name: string } }).constructor.name);
  }
  return typeof value;
}

function invalidType(expected: string, value: unknown, path: IssuePath, issues: PlainIssue[]): void {
  issues.push({ path, message: `Invalid input: expected ${expected}, received ${receivedType(value)}` });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `format` names zod's format in its message ("Invalid ISO datetime"); `message` replaces it (`.regex(re, message)`). */
export function string(opts: { min?: number; max?: number; pattern?: RegExp; format?: string; message?: string } = {}): PlainSchema<string> {
  return (value, path, issues) => {
    if (typeof value !== 'string') {
      invalidType('string', value, path, issues);
      lengthChecks(value, opts, path, issues); // zod 4 runs length checks on anything with a length
      return '';
    }
    lengthChecks(value, opts, path, issues);
    if (opts.pattern && !opts.pattern.test(value))
      issues.push({ path, message: opts.message ?? `Invalid ${opts.format ?? 'string'}`, continue: true });
    return value;
  };
}

/** zod 4's min/max length checks: they run even after a type issue, on any value with a `length`. */
function lengthChecks(value: unknown, opts: { min?: number; max?: number }, path: IssuePath, issues: PlainIssue[]): void {
  if (value === null || value === undefined) return;
  const length = (value as { length?: unknown }).length as number | undefined;
  if (length === undefined) return;
  const origin = Array.isArray(value) ? 'array' : typeof value === 'string' ? 'string' : 'unknown';
  const unit = origin === 'string' ? ' characters' : origin === 'array' ? ' items' : '';
  const verb = unit ? 'to have' : 'to be';
  if (opts.min !== undefined && !(length >= opts.min))
    issues.push({ path, message: `Too small: expected ${origin} ${verb} >=${opts.min}${unit}`, continue: true });
  if (opts.max !== undefined && !(length <= opts.max))
    issues.push({ path, message: `Too big: expected ${origin} ${verb} <=${opts.max}${unit}`, continue: true });
}

export function number(opts: { int?: boolean; positive?: boolean; nonnegative?: boolean } = {}): PlainSchema<number> {
  return (value, path, issues) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      invalidType('number', value, path, issues);
      return 0;
    }
    if (opts.int && !Number.isSafeInteger(value)) {
      if (Number.isInteger(value))
        issues.push({
          path,
          message: value > 0 ? `Too big: expected int to be <${Number.MAX_SAFE_INTEGER}` : `Too small: expected int to be >${Number.MIN_SAFE_INTEGER}`,
          continue: true,
        });
      else issues.push({ path, message: 'Invalid input: expected int, received number', continue: true });
    }
    if (opts.positive && !(value > 0)) issues.push({ path, message: 'Too small: expected number to be >0', continue: true });
    if (opts.nonnegative && !(value >= 0)) issues.push({ path, message: 'Too small: expected number to be >=0', continue: true });
    return value;
  };
}

export function literalEnum<const V extends readonly string[]>(values: V): PlainSchema<V[number]> {
  return (value, path, issues) => {
    if (typeof value !== 'string' || !values.includes(value))
      issues.push({
        path,
        message:
          values.length === 1
            ? `Invalid input: expected "${values[0]}"`
            : `Invalid option: expected one of ${values.map((v) => `"${v}"`).join('|')}`,
      });
    return value as V[number];
  };
}

export const unknown: PlainSchema<unknown> = (value) => value;

export function boolean(): PlainSchema<boolean> {
  return (value, path, issues) => {
    if (typeof value !== 'boolean') invalidType('boolean', value, path, issues);
    return value as boolean;
  };
}

/** z.literal of a string. */
export function literal<const V extends string>(expected: V): PlainSchema<V> {
  return (value, path, issues) => {
    if (value !== expected) issues.push({ path, message: `Invalid input: expected "${expected}"` });
    return expected;
  };
}

/** z.record(z.string(), z.unknown()): any plain object, copied. */
export function record(): PlainSchema<Record<string, unknown>> {
  return (value, path, issues) => {
    if (!isPlainObject(value)) {
      invalidType('record', value, path, issues);
      return {};
    }
    return { ...value };
  };
}

export function optional<T>(schema: PlainSchema<T>): PlainSchema<T | undefined> {
  return (value, path, issues) => (value === undefined ? undefined : schema(value, path, issues));
}

export function nullable<T>(schema: PlainSchema<T>): PlainSchema<T | null> {
  return (value, path, issues) => (value === null ? null : schema(value, path, issues));
}

export function array<T>(item: PlainSchema<T>): PlainSchema<T[]> {
  return (value, path, issues) => {
    if (!Array.isArray(value)) {
      invalidType('array', value, path, issues);
      return [];
    }
    return value.map((v, i) => item(v, [...path, i], issues));
  };
}

type Shape = Record<string, PlainSchema<unknown>>;
type OutputOf<S extends Shape> = { [K in keyof S]: ReturnType<S[K]> };

/** z.object (unknown keys stripped) or, with `loose`, z.looseObject (unknown keys kept). */
export function object<S extends Shape>(shape: S, opts: { loose?: boolean } = {}): PlainSchema<OutputOf<S>> {
  return (value, path, issues) => {
    if (!isPlainObject(value)) {
      invalidType('object', value, path, issues);
      return {} as OutputOf<S>;
    }
    const out: Record<string, unknown> = opts.loose ? { ...value } : {};
    for (const [key, schema] of Object.entries(shape)) {
      const parsed = schema(value[key], [...path, key], issues);
      // zod leaves an absent optional key absent (and keeps a present `undefined`)
      if (parsed !== undefined || key in value) out[key] = parsed;
    }
    return out as OutputOf<S>;
  };
}

/**
 * z.union: the first option that parses; else, when exactly one option failed only on checks (not on type),
 * that option's issues (zod 4's handleUnionResults); else one "Invalid input" issue.
 */
export function union<T>(options: PlainSchema<T>[]): PlainSchema<T> {
  return (value, path, issues) => {
    const results = options.map((option) => {
      const own: PlainIssue[] = [];
      return { parsed: option(value, path, own), own };
    });
    const ok = results.find((r) => r.own.length === 0);
    if (ok) return ok.parsed;
    const onlyChecks = results.filter((r) => r.own.every((i) => i.continue === true));
    if (onlyChecks.length === 1) {
      issues.push(...onlyChecks[0]!.own);
      return onlyChecks[0]!.parsed;
    }
    issues.push({ path, message: 'Invalid input' });
    return value as T;
  };
}

/**
 * z.discriminatedUnion(key, …): the option whose `key` literal is the value's; none → "Invalid input" at `key`.
 * `options` maps each discriminator value to its option.
 */
export function discriminatedUnion<T>(key: string, options: Record<string, PlainSchema<T>>): PlainSchema<T> {
  return (value, path, issues) => {
    if (!isPlainObject(value)) {
      invalidType('object', value, path, issues);
      return value as T;
    }
    const tag = value[key];
    const option = typeof tag === 'string' && Object.hasOwn(options, tag) ? options[tag] : undefined;
    if (!option) {
      issues.push({ path: [...path, key], message: 'Invalid input' });
      return value as T;
    }
    return option(value, path, issues);
  };
}

/** `schema.safeParse`, zod-style. */
export function safeParse<T>(
  schema: PlainSchema<T>,
  value: unknown,
): { success: true; data: T } | { success: false; error: { issues: PlainIssue[] } } {
  const issues: PlainIssue[] = [];
  const data = schema(value, [], issues);
  return issues.length === 0 ? { success: true, data } : { success: false, error: { issues } };
}
