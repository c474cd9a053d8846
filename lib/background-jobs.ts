import type { FastifyBaseLogger } from 'fastify';

/**
 * Work done after the answer has gone (sending an email, the database work behind a password
 * reset request), so a request never waits for it and its timing says nothing about the outcome.
 * In process: a job in flight when the process dies is lost (a visitor asks again).
 */
export class BackgroundJobs {
  readonly #running = new Set<Promise<void>>();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #log: FastifyBaseLogger;
  readonly #stopping = new AbortController();

  constructor(log: FastifyBaseLogger) {
    this.#log = log;
  }

  /** Aborted when the app closes: long waits (mail retries) give up instead of holding the shutdown. */
  get signal(): AbortSignal {
    return this.#stopping.signal;
  }

  /** Starts `job` now and returns at once. A failure is logged, never thrown at the caller. */
  run(name: string, job: (signal: AbortSignal) => Promise<unknown>): void {
    const running: Promise<void> = Promise.resolve()
      .then(() => job(this.#stopping.signal))
      .then(
        () => undefined,
        (error: unknown) => this.#log.error({ err: error, job: name }, 'background job failed'),
      )
      .finally(() => this.#running.delete(running));
    this.#running.add(running);
  }

  /**
   * Runs `job` every `intervalMs` as a background job (clean-ups of expired rows): a run still
   * going when the app closes is waited for like any job. The timer never keeps the process alive.
   */
  every(name: string, intervalMs: number, job: (signal: AbortSignal) => Promise<unknown>): void {
    const timer = setInterval(() => this.run(name, job), intervalMs);
    timer.unref();
    this.#timers.add(timer);
  }

  /** Resolves once every job started so far (and any they started) has finished. */
  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.all([...this.#running]);
  }

  /** Starts no more periodic runs, stops waiting (retry delays end early) and lets the jobs in flight finish. */
  async stop(): Promise<void> {
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers.clear();
    this.#stopping.abort();
    await this.settled();
  }
}
