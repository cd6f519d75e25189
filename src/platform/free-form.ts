/**
 * Free-form JSON: request values without a fixed schema (a payment method's additional data, custom attribute
 * values, extra form fields) are kept as they come, so their shape is capped instead: at most
 * FREE_FORM_MAX_DEPTH levels of objects and arrays and FREE_FORM_MAX_BYTES of JSON, else a 400 naming the
 * field. Request bodies as a whole are capped at BODY_MAX_DEPTH levels before they are parsed, so no nesting
 * reaches a recursive parser, validator or serializer.
 *
 * `FreeForm(schema)` marks a TypeBox schema; the `x-free-form` keyword (installed on the body validator)
 * enforces it; `freeFormProblem` is the same check for other adapters (the GraphQL JSON scalar).
 */
import type { TSchema } from 'typebox';

export const FREE_FORM_MAX_DEPTH = 10;
export const FREE_FORM_MAX_BYTES = 16 * 1024;
/** deepest nesting of any JSON request body */
export const BODY_MAX_DEPTH = 32;

export interface FreeFormLimits {
  maxDepth: number;
  maxBytes: number;
}

export const FREE_FORM_KEYWORD = 'x-free-form';

/** Marks `schema` as free-form JSON with the given (or the default) limits. */
export function FreeForm<T extends TSchema>(schema: T, limits: Partial<FreeFormLimits> = {}): T {
  return {
    ...schema,
    [FREE_FORM_KEYWORD]: { maxDepth: limits.maxDepth ?? FREE_FORM_MAX_DEPTH, maxBytes: limits.maxBytes ?? FREE_FORM_MAX_BYTES },
  };
}

/** Levels of objects and arrays in a value (a scalar is 0), counted without recursion and only up to `stop`. */
function depthOf(value: unknown, stop: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    const here = d + 1;
    if (here > deepest) deepest = here;
    if (deepest > stop) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push([child, here]);
    }
  }
  return deepest;
}

/** Why a free-form value breaks the limits, or undefined when it keeps them. */
export function freeFormProblem(
  value: unknown,
  limits: FreeFormLimits = { maxDepth: FREE_FORM_MAX_DEPTH, maxBytes: FREE_FORM_MAX_BYTES },
): string | undefined {
  if (depthOf(value, limits.maxDepth) > limits.maxDepth) return `is nested too deeply (at most ${limits.maxDepth} levels)`;
  const json = JSON.stringify(value);
  if (json !== undefined && Buffer.byteLength(json) > limits.maxBytes) return `is too large (at most ${limits.maxBytes} bytes of JSON)`;
  return undefined;
}

interface KeywordErrorTarget {
  errors?: { keyword: string; message: string; params: Record<string, unknown> }[] | null;
}

/** The AJV keyword that enforces FreeForm's limits. */
export const freeFormKeyword = {
  keyword: FREE_FORM_KEYWORD,
  schemaType: 'object',
  errors: true,
  validate: function check(this: unknown, limits: FreeFormLimits, data: unknown): boolean {
    const problem = freeFormProblem(data, limits);
    const self = check as unknown as KeywordErrorTarget;
    self.errors = problem ? [{ keyword: FREE_FORM_KEYWORD, message: problem, params: { ...limits } }] : null;
    return !problem;
  },
} as const;

/**
 * Whether JSON text nests deeper than `stop`, read without parsing it (brackets outside strings) and stopping
 * there: undefined when it does not, else where it does, as the top-level key it happens under when the text is
 * an object (`{field: 'paymentData'}`). Malformed text is left to the parser.
 */
export function jsonTooDeep(text: string, stop = BODY_MAX_DEPTH): { field?: string } | undefined {
  let depth = 0;
  let rootIsObject = false;
  /** the last string read at depth 1, and the key the value being read there belongs to */
  let lastString: [number, number] | undefined;
  let key: [number, number] | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const from = i;
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
      if (depth === 1) lastString = [from, i];
    } else if (c === 58) {
      if (depth === 1) key = lastString;
    } else if (c === 123 || c === 91) {
      if (depth === 0) rootIsObject = c === 123;
      if (++depth > stop) return { field: rootIsObject && key ? keyText(text, key) : undefined };
    } else if (c === 125 || c === 93) depth--;
  }
  return undefined;
}

/** A key's text (at most 64 characters) from its quoted form. */
function keyText(text: string, [from, to]: [number, number]): string | undefined {
  try {
    return String(JSON.parse(text.slice(from, to + 1))).slice(0, 64);
  } catch {
    return undefined;
  }
}
