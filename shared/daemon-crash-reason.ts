// The one line of a crashed daemon's stderr worth showing to the operator who ran `daemon start`.
// Node prints an uncaught exception as the source line, a caret, a blank line, `TypeError: ...`,
// the stack, and finally `Node.js v20.x`: the last line is the least useful one, the error line
// the most. Messages the daemon prints itself (one line, no stack) are taken as they are.

const ERROR_LINE = /^(?:[A-Z][A-Za-z]*)?(?:Error|Exception)(?: \[[A-Z0-9_]+\])?: /;
const NODE_VERSION_LINE = /^Node\.js v\d/;
const STACK_FRAME = /^\s+at /;

export function crashReason(stderr: string): string | undefined {
  const lines = stderr.split('\n').map((l) => l.trimEnd()).filter((l) => l.trim() !== '');
  const errorLine = lines.find((l) => ERROR_LINE.test(l));
  if (errorLine !== undefined) return errorLine;
  return lines.filter((l) => !NODE_VERSION_LINE.test(l) && !STACK_FRAME.test(l)).at(-1);
}
