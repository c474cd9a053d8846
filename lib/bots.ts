import { isbot } from 'isbot';

const decided = new WeakMap<object, boolean>();

/** isbot on the User-Agent, once per request: several callers ask, and its pattern is costly. */
export function isBotRequest(request: { headers: { 'user-agent'?: string | undefined } }): boolean {
  let bot = decided.get(request);
  if (bot === undefined) {
    bot = isbot(request.headers['user-agent'] ?? '');
    decided.set(request, bot);
  }
  return bot;
}
