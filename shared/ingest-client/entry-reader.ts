// Entries out of a byte stream, one at a time, never the whole input in memory: NDJSON (one JSON
// value per line, blank lines skipped) or one JSON array (elements split by a small scanner that
// tracks strings and nesting, then JSON.parse'd one by one). The first non-blank byte decides: `[`
// is an array. Each entry carries the 1-based line it starts on, for reporting rejects.

export type ReadItem = { line: number; value: unknown } | { line: number; error: string };

const OPEN_BRACKET = 0x5b;

export async function* readEntries(input: AsyncIterable<Buffer | string>): AsyncGenerator<ReadItem> {
  const chunks = input[Symbol.asyncIterator]();
  let first = await chunks.next();
  let head = '';
  while (!first.done) {
    head += first.value.toString();
    if (head.trim() !== '') break;
    first = await chunks.next();
  }
  if (head.trim() === '') return;
  const rest = async function* () {
    yield head;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value.toString();
  };
  if (head.trimStart().charCodeAt(0) === OPEN_BRACKET) yield* arrayElements(rest());
  else yield* ndjsonLines(rest());
}

async function* ndjsonLines(text: AsyncIterable<string>): AsyncGenerator<ReadItem> {
  let pending = '';
  let line = 0;
  const emit = function* (raw: string): Generator<ReadItem> {
    line++;
    if (raw.trim() === '') return;
    yield parse(raw, line);
  };
  for await (const chunk of text) {
    pending += chunk;
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      yield* emit(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
      newline = pending.indexOf('\n');
    }
  }
  if (pending !== '') yield* emit(pending);
}

async function* arrayElements(text: AsyncIterable<string>): AsyncGenerator<ReadItem> {
  let depth = 0; // 1 inside the top-level array
  let inString = false;
  let escaped = false;
  let line = 1;
  let element = '';
  let elementLine = 0;
  let closed = false;
  for await (const chunk of text) {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (c === '\n') line++;
      if (closed) {
        if (c.trim() !== '') {
          yield { line, error: 'unexpected data after the closing ] of the array' };
          return;
        }
        continue;
      }
      if (depth === 0) {
        if (c === '[') depth = 1;
        continue;
      }
      if (inString) {
        element += c;
        if (escaped) escaped = false;
        else if (c === '\\') escaped = true;
        else if (c === '"') inString = false;
        continue;
      }
      if (depth === 1 && (c === ',' || c === ']')) {
        if (element.trim() !== '') yield parse(element, elementLine);
        else if (c === ',') yield { line, error: 'empty array element' };
        element = '';
        if (c === ']') closed = true;
        continue;
      }
      if (element === '' && c.trim() === '') continue;
      if (element === '') elementLine = line;
      if (c === '"') inString = true;
      else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') depth--;
      element += c;
    }
  }
  if (!closed) yield { line, error: 'the JSON array is not closed (truncated input?)' };
}

function parse(raw: string, line: number): ReadItem {
  try {
    return { line, value: JSON.parse(raw) };
  } catch (error) {
    return { line, error: `not valid JSON: ${(error as Error).message}` };
  }
}
