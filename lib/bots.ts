import { isbot } from 'isbot';

const decided = new WeakMap<object, boolean>();

/**
 * Whether a request comes from a crawler (isbot on its User-Agent). Decided once per request:
 * the page cache's key, the `/` → `/th` offer and the render all ask, and isbot's pattern is
 * long enough to show in a profile when run three times a page.
 */
export function isBotRequest(request: { headers: { 'user-agent'?: string | undefined } }): boolean {
  let bot = decided.get(request);
  if (bot === undefined) {
    bot = isbot(request.headers['user-agent'] ?? '');
    decided.set(request, bot);
  }
  return bot;
}
