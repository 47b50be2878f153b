import type { Logger } from 'pino';

// Graceful stop, once, whatever asks first: SIGTERM, SIGINT, the admin socket. Steps run in the order
// they were added (stop accepting, drain, flush stores, remove files); a failing step is logged and
// the next one still runs. A second SIGINT/SIGTERM while stopping exits at once.

export type ShutdownStep = { name: string; run: () => Promise<void> | void };

export class Shutdown {
  readonly #steps: ShutdownStep[] = [];
  readonly #logger: Logger;
  #running: Promise<void> | null = null;
  #finished!: () => void;
  /** Resolves when a stop, whoever asked for it, has run every step. */
  readonly done: Promise<void> = new Promise((resolve) => {
    this.#finished = resolve;
  });

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  get started(): boolean {
    return this.#running !== null;
  }

  add(name: string, run: () => Promise<void> | void): void {
    this.#steps.push({ name, run });
  }

  run(reason: string): Promise<void> {
    if (!this.#running) {
      this.#logger.info({ reason }, 'stopping');
      this.#running = this.#runSteps().finally(() => this.#finished());
    }
    return this.#running;
  }

  async #runSteps(): Promise<void> {
    for (const step of this.#steps) {
      try {
        await step.run();
      } catch (error) {
        this.#logger.error({ err: error, step: step.name }, 'shutdown step failed');
      }
    }
  }

  /** SIGTERM/SIGINT stop gracefully (see `done`); a second one calls `onForce`. SIGHUP calls `onReload`. */
  handleSignals(onForce: () => void, onReload: () => void): void {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.on(signal, () => {
        if (this.started) {
          this.#logger.warn({ signal }, 'second signal while stopping: exiting now');
          onForce();
          return;
        }
        void this.run(signal);
      });
    }
    process.on('SIGHUP', onReload);
  }
}
