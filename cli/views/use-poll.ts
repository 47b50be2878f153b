// Runs a load now, again whenever its key changes, and every `intervalMs` in between. An answer
// that arrives after a newer load started is dropped, so a slow poll cannot overwrite a fresh page.
import { useEffect, useRef, useState } from 'react';

export interface Polled<T> {
  data?: T;
  error?: unknown;
  /** When the last answer (data or error) arrived. */
  at?: Date;
  loading: boolean;
}

export function usePoll<T>(load: () => Promise<T>, key: string, intervalMs: number, now: () => Date = () => new Date()): Polled<T> & { reload(): void } {
  const [state, setState] = useState<Polled<T>>({ loading: true });
  const [tick, setTick] = useState(0);
  const sequence = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    let alive = true;
    const run = () => {
      const mine = ++sequence.current;
      setState((s) => ({ ...s, loading: true }));
      loadRef.current().then(
        (data) => alive && mine === sequence.current && setState({ data, error: undefined, at: now(), loading: false }),
        // Keep the last good data on screen under the error: the operator still sees what was there.
        (error: unknown) => alive && mine === sequence.current && setState((s) => ({ ...s, error, at: now(), loading: false })),
      );
    };
    run();
    const timer = setInterval(run, intervalMs);
    return () => {
      alive = false;
      clearInterval(timer);
    };
    // `now` is a clock, not an input: a new function identity must not restart the poll.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, intervalMs, tick]);

  return { ...state, reload: () => setTick((t) => t + 1) };
}
