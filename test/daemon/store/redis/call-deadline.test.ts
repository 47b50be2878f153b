// The Redis call deadline (daemon/store/redis/call-deadline.ts): an answer that arrived while this
// process was stalled past the deadline still wins; a call with no answer fails. The answer comes
// from another process (an echo server), so it lands in the socket while this one is busy.
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallDeadlineError, withDeadline } from '../../../../daemon/store/redis/call-deadline.js';

const ECHO = `const s = require('node:net').createServer((c) => c.on('data', (d) => c.write(d)));
s.listen(0, '127.0.0.1', () => console.log(s.address().port));`;

let echo: ChildProcess;
let socket: Socket;
beforeAll(async () => {
  echo = spawn(process.execPath, ['-e', ECHO], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(echo.stdout!, 'data')) as [Buffer];
  socket = connect(Number(line.toString().trim()), '127.0.0.1');
  await once(socket, 'connect');
});
afterAll(() => {
  socket?.destroy();
  echo?.kill();
});

/** Sends `text` and resolves with the echo. */
function call(text: string): Promise<string> {
  return new Promise((resolve) => {
    socket.once('data', (d) => resolve(d.toString()));
    socket.write(text);
  });
}

/** Holds the event loop for `ms`, as a rule set compiling in the primary would. */
function stall(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) { /* busy */ }
}

describe('withDeadline', () => {
  it('lets an answer that arrived during a stall win over a deadline that passed meanwhile', async () => {
    for (let i = 0; i < 5; i++) {
      const pending = withDeadline(call(`ping ${i}`), 50);
      stall(200); // the echo is back long before this ends; the 50 ms timer is overdue
      await expect(pending).resolves.toBe(`ping ${i}`);
    }
  });

  it('fails a call that gets no answer, and passes on a call that fails by itself', async () => {
    await expect(withDeadline(new Promise<never>(() => undefined), 20)).rejects.toBeInstanceOf(CallDeadlineError);
    await expect(withDeadline(Promise.reject(new Error('NOSCRIPT')), 20)).rejects.toThrow('NOSCRIPT');
  });
});
