// Inputs built to make a regex backtrack: long runs of one character, of quotes and brackets
// nested, of whitespace and separators, and of the regex's own literals repeated (with and without
// separators), each ending in a byte that makes the match fail late. Sizes go up to the engine's
// request-body inspection limit (SecRequestBodyNoFilesLimit 131072 in daemon/rule-sets/base-settings.conf).

export const BODY_LIMIT = 131_072;
export const SIZES = [1_024, 8_192, BODY_LIMIT - 64] as const;

export interface Pathological {
  /** How the input was built, without its size, e.g. `run "'" + "!"`: the same shape can be rebuilt at another size. */
  shape: string;
  value: string;
}

const UNITS = [
  'a', ' ', '\t', '0', '9', "'", '"', '`', '\\', '/', '%', '(', ')', '<', '>', '[', '{', ';', '-', '=', '&', '|', '.', '*', '$', '@', '#', '\u00ff', '\u0000',
  "'\"", '"\'', '()', '((', '))', '<<', '<a', '/*', '*/', '--', '%2', '%u', '\\x', '&#', '..', './', '../', '${', '{{', 'a ', ' a', 'a=', 'a,', 'a(', '=a',
  "''", '""', "\\'", '\\"', '" "', "' '",
];

const ENDINGS = ['', '!', '\u0000', '\n', "'", '"'];

/** Literal words of a pattern (escapes and classes stripped), longest first, at most `max`. */
export function literalsOf(pattern: string, max = 12): string[] {
  const plain = pattern
    .replace(/\\x[0-9a-fA-F]{2}|\\[a-zA-Z]/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\(\?[a-zA-Z]*[:)]?/g, ' ');
  const words = new Set((plain.match(/[A-Za-z_][A-Za-z0-9_]{1,}/g) ?? []).map((w) => w.toLowerCase()));
  return [...words].sort((a, b) => b.length - a.length || (a < b ? -1 : 1)).slice(0, max);
}

function repeatTo(unit: string, size: number): string {
  return unit.repeat(Math.max(1, Math.floor(size / unit.length)));
}

/** Every shape at one size; the driver runs small sizes for all and the body limit for each regex's worst. */
export function* pathologicalInputs(pattern: string, size: number): Generator<Pathological> {
  const literals = literalsOf(pattern);
  {
    for (const unit of UNITS) {
      for (const end of ENDINGS.slice(0, 2)) yield { shape: `run ${JSON.stringify(unit)}${end ? ` + ${JSON.stringify(end)}` : ''}`, value: repeatTo(unit, size) + end };
    }
    // Nested quotes and brackets: the shape of SQL and JS injection detectors' worst cases.
    yield { shape: 'nested quotes', value: repeatTo(`'"\``, size / 2) + repeatTo('a', size / 2) };
    yield { shape: 'nested brackets', value: '('.repeat(Math.floor(size / 2)) + ')'.repeat(Math.floor(size / 2) - 1) };
    for (const literal of literals) {
      for (const sep of ['', ' ', '/**/', '(', "'", '%20', '+']) {
        for (const end of ENDINGS.slice(0, 3)) {
          yield { shape: `literal ${JSON.stringify(literal + sep)}${end ? ` + ${JSON.stringify(end)}` : ''}`, value: repeatTo(literal + sep, size) + end };
        }
      }
    }
    if (literals.length > 1) {
      const mix = literals.join(' ');
      yield { shape: 'all literals joined', value: repeatTo(mix + ' ', size) + '!' };
      yield { shape: 'all literals, no space', value: repeatTo(literals.join(''), size) + '!' };
    }
  }
}
