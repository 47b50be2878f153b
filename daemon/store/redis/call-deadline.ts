// The 50 ms a Redis call gets (redis-connection.ts), judged so that this process's own stalls do
// not count against Redis. A timer that fires late because the event loop was busy (a rule set
// compiling, a long GC) would fail a call whose answer is already in the socket: timers run before
// the poll phase that reads it, and a failed call is answered from local counts while Redis
// counted it too (an overcount). So when the deadline passes, the verdict waits for setImmediate,
// which runs after that poll phase: an answer already here wins, one that is not fails the call.
// ioredis' own commandTimeout stays as a backstop for the command queue.

export class CallDeadlineError extends Error {
  constructor(ms: number) {
    super(`Redis did not answer within ${ms} ms`);
    this.name = 'CallDeadlineError';
  }
}

export function withDeadline<T>(call: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      setImmediate(() => {
        if (settled) return;
        settled = true;
        reject(new CallDeadlineError(ms));
      });
    }, ms);
    call.then(
      (value) => { if (settled) return; settled = true; clearTimeout(timer); resolve(value); },
      (error: unknown) => { if (settled) return; settled = true; clearTimeout(timer); reject(error); },
    );
  });
}
