// A failing task frees its slot like any other; its error goes to the caller of `run` only.

export const PRELOAD_CONCURRENCY = 5;

export interface Limiter {
  /** Run `task` when a slot is free; resolves or rejects with the task's outcome. */
  run<T>(task: () => T | PromiseLike<T>): Promise<T>;
  pending(): number;
  active(): number;
  /** Drop queued (not started) tasks; their promises reject with an AbortError. Returns how many. */
  clear(): number;
}

export function createLimiter(max: number = PRELOAD_CONCURRENCY): Limiter {
  if (!Number.isInteger(max) || max < 1) {
    throw new RangeError(`createLimiter: max must be a positive integer, got ${max}`);
  }
  let running = 0;
  const queue: Array<{ start: () => void; cancel: () => void }> = [];

  const next = () => {
    while (running < max && queue.length > 0) {
      queue.shift()!.start();
    }
  };

  return {
    run<T>(task: () => T | PromiseLike<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const start = () => {
          running++;
          let result: Promise<T>;
          try {
            result = Promise.resolve(task());
          } catch (error) {
            result = Promise.reject(error);
          }
          result.then(resolve, reject).finally(() => {
            running--;
            next();
          });
        };
        const cancel = () => reject(new DOMException('The queued task was cleared.', 'AbortError'));
        queue.push({ start, cancel });
        next();
      });
    },
    pending: () => queue.length,
    active: () => running,
    clear() {
      const dropped = queue.splice(0, queue.length);
      for (const item of dropped) item.cancel();
      return dropped.length;
    },
  };
}
