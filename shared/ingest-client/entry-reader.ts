import { StringDecoder } from 'node:string_decoder';

// Entries out of a byte stream, never the whole input in memory: NDJSON (one JSON value per line,
// blank lines skipped) or one JSON array (elements split by a small scanner that tracks strings and
// nesting, then JSON.parse'd one by one). The first non-blank byte decides: `[` is an array. Each
// entry carries the 1-based line it starts on, for reporting rejects, and its JSON text as read, so
// a batch is sent as those texts joined instead of being serialised again.
// Entries come in groups, one group per chunk of input: a loop over an array costs far less than an
// await per entry. Bytes are decoded with a StringDecoder, so a UTF-8 character split across two
// chunks stays whole.

export type ReadItem = { line: number; value: unknown; text: string } | { line: number; error: string };

const OPEN_BRACKET = 0x5b;

async function* decoded(input: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of input) {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    if (text !== '') yield text;
  }
  const rest = decoder.end();
  if (rest !== '') yield rest;
}

/** The entries of the input, a group per chunk (a group may be empty). */
export async function* readEntryGroups(input: AsyncIterable<Buffer | string>): AsyncGenerator<ReadItem[]> {
  const chunks = decoded(input)[Symbol.asyncIterator]();
  let head = '';
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
    head += next.value;
    if (head.trim() !== '') break;
  }
  if (head.trim() === '') return;
  const rest = async function* () {
    yield head;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  };
  if (head.trimStart().charCodeAt(0) === OPEN_BRACKET) yield* arrayElements(rest());
  else yield* ndjsonLines(rest());
}

/** The entries of the input one by one. */
export async function* readEntries(input: AsyncIterable<Buffer | string>): AsyncGenerator<ReadItem> {
  for await (const group of readEntryGroups(input)) yield* group;
}

async function* ndjsonLines(text: AsyncIterable<string>): AsyncGenerator<ReadItem[]> {
  let pending = '';
  let line = 0;
  for await (const chunk of text) {
    const group: ReadItem[] = [];
    const all = pending + chunk;
    let start = 0;
    // pending holds no newline: the search starts where the new chunk does.
    for (let newline = all.indexOf('\n', pending.length); newline >= 0; newline = all.indexOf('\n', start)) {
      line++;
      const raw = all.slice(start, newline);
      if (!isBlank(raw)) group.push(parse(raw, line));
      start = newline + 1;
    }
    pending = all.slice(start);
    yield group;
  }
  if (!isBlank(pending)) yield [parse(pending, line + 1)];
}

async function* arrayElements(text: AsyncIterable<string>): AsyncGenerator<ReadItem[]> {
  let depth = 0; // 1 inside the top-level array
  let inString = false;
  let escaped = false;
  let line = 1;
  let element = '';
  let elementLine = 0;
  let closed = false;
  for await (const chunk of text) {
    const group: ReadItem[] = [];
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (c === '\n') line++;
      if (closed) {
        if (c.trim() !== '') {
          group.push({ line, error: 'unexpected data after the closing ] of the array' });
          yield group;
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
        if (element.trim() !== '') group.push(parse(element, elementLine));
        else if (c === ',') group.push({ line, error: 'empty array element' });
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
    yield group;
  }
  if (!closed) yield [{ line, error: 'the JSON array is not closed (truncated input?)' }];
}

const isBlank = (raw: string): boolean => raw.length === 0 || raw.trim() === '';

function parse(raw: string, line: number): ReadItem {
  try {
    return { line, value: JSON.parse(raw), text: raw };
  } catch (error) {
    return { line, error: `not valid JSON: ${(error as Error).message}` };
  }
}
