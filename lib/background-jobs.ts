import type { FastifyBaseLogger } from 'fastify';

/** Work done after the answer has gone, so its timing tells nothing; in process, lost with it. */
export class BackgroundJobs {
  readonly #running = new Set<Promise<void>>();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #log: FastifyBaseLogger;
  readonly #stopping = new AbortController();
  readonly #reporters: Array<(error: unknown, log: FastifyBaseLogger) => boolean> = [];

  constructor(log: FastifyBaseLogger) {
    this.#log = log;
  }

  /** Aborted when the app closes, so long waits (mail retries) do not hold the shutdown. */
  get signal(): AbortSignal {
    return this.#stopping.signal;
  }

  /** A failure `report` says it logged in its own way (a full disk) is not logged again. */
  reportFailures(report: (error: unknown, log: FastifyBaseLogger) => boolean): void {
    this.#reporters.push(report);
  }

  /** A failure is logged, never thrown at the caller. */
  run(name: string, job: (signal: AbortSignal) => Promise<unknown>): void {
    const running: Promise<void> = Promise.resolve()
      .then(() => job(this.#stopping.signal))
      .then(
        () => undefined,
        (error: unknown) => {
          const log = this.#log.child({ job: name });
          if (!this.#reporters.some((report) => report(error, log))) log.error({ err: error }, 'background job failed');
        },
      )
      .finally(() => this.#running.delete(running));
    this.#running.add(running);
  }

  /** The timer never keeps the process alive; a run going at close is waited for. */
  every(name: string, intervalMs: number, job: (signal: AbortSignal) => Promise<unknown>): void {
    const timer = setInterval(() => this.run(name, job), intervalMs);
    timer.unref();
    this.#timers.add(timer);
  }

  /** Including jobs started by jobs. */
  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.all([...this.#running]);
  }

  async stop(): Promise<void> {
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers.clear();
    this.#stopping.abort();
    await this.settled();
  }
}
