// The longest value a phase's rules may inspect, from the request (and response) as received: it
// decides whether the phase runs under one watchdog (time-budget.ts). A generous estimate costs one
// watchdog (~0.1 ms); a low one only means that the execs on the long value are guarded one by one
// (still bounded). Transformations may lengthen a value (t:utf8toUnicode up to 3x): those execs are
// guarded one by one too, since the matcher compares each subject with the budget's limit.
import type { Transaction } from '../transaction.js';
import type { VarEntry } from '../collections/keyed-list.js';

function longestEntry(entries: readonly VarEntry[], atLeast: number): number {
  let longest = atLeast;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (e.value.length > longest) longest = e.value.length;
    if (e.key.length > longest) longest = e.key.length;
  }
  return longest;
}

export function longestInput(tx: Transaction, phase: number): number {
  const request = tx.request;
  // Phase 1: the request line (URI, query arguments) and the headers (cookies are parts of one).
  let longest = longestEntry(request.headers.entries, request.requestLine.length);
  if (phase === 1) return longest;
  // Phase 2: the arguments (query and body), REQUEST_BODY when it exists, and for the XML and
  // multipart processors the whole body (XML text, part contents).
  longest = longestEntry(tx.args.entries, Math.max(longest, tx.body.raw?.length ?? 0));
  const processor = tx.body.processor;
  if (processor === 'XML' || processor === 'MULTIPART') longest = Math.max(longest, request.body?.length ?? 0);
  if (phase === 2) return longest;
  longest = longestEntry(tx.responseHeaders.entries, longest);
  return Math.max(longest, tx.responseBody?.length ?? 0);
}
