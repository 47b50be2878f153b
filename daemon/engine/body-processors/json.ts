// JSON: arguments named exactly as ModSecurity 2.9's msc_json.c names them: keys of nested objects
// joined with '.', array elements named after their array's key repeated ("a":[1] gives a.a), a
// top-level array's elements "array.array", a top-level scalar "" (an empty name). Values: strings
// (UTF-8 bytes), numbers as written, true/false, and null as an empty value.
// SecRequestBodyJsonDepthLimit (default 10000; the daemon's base settings use the recommended 512)
// and SecArgumentsLimit stop the parse with an error; the parse runs on the time budget.
import type { BodyProcessor } from './types.js';
import { ParseClock } from './parse-clock.js';
import { ArgumentList, ARGUMENT_LIMIT_MESSAGE } from './argument-list.js';
import { JsonCancelled, JsonSyntaxError, readJson } from './json-reader.js';

export const json: BodyProcessor = (body, _contentType, limits) => {
  const list = new ArgumentList(limits.maxArgs);
  const clock = new ParseClock(limits);
  const maxDepth = limits.maxJsonDepth ?? 10000;
  let prefix: string | null = null;
  let currentKey: string | null = null;
  let depth = 0;
  let depthExceeded = false;
  const pop = (): string | null => {
    const sep = prefix!.lastIndexOf('.');
    const tail = sep >= 0 ? prefix!.slice(sep + 1) : prefix;
    prefix = sep >= 0 ? prefix!.slice(0, sep) : null;
    return tail;
  };
  const enter = (): boolean => {
    clock.tick();
    depth++;
    if (depth > maxDepth) { depthExceeded = true; return false; }
    return true;
  };
  const text = body.toString('latin1');
  if (text.trim().length === 0) return { args: [], files: [] };
  try {
    readJson(text, {
      scalar(value) {
        clock.tick();
        currentKey ??= '';
        return list.add(prefix !== null ? `${prefix}.${currentKey}` : currentKey, value);
      },
      key(name) { currentKey = name; },
      startMap() {
        if (currentKey === null) return true;
        prefix = prefix !== null ? `${prefix}.${currentKey}` : currentKey;
        return enter();
      },
      endMap() {
        if (prefix === null) return;
        currentKey = pop();
        depth--;
      },
      startArray() {
        if (currentKey === null && prefix === null) {
          prefix = 'array';
          currentKey = 'array';
        } else {
          prefix = prefix !== null ? `${prefix}.${currentKey}` : currentKey;
        }
        return enter();
      },
      endArray() {
        if (prefix === null) return;
        pop();
        depth--;
      },
    });
  } catch (err) {
    if (!(err instanceof JsonSyntaxError) && !(err instanceof JsonCancelled)) throw err;
    const reason = depthExceeded ? 'JSON depth limit exceeded' : list.overLimit ? ARGUMENT_LIMIT_MESSAGE : err.message;
    const stoppedAt = err instanceof JsonCancelled ? { stoppedAt: err.offset } : {};
    return { args: list.args, files: [], error: `JSON parsing error: ${reason}`, ...stoppedAt };
  }
  return { args: list.args, files: [] };
};
