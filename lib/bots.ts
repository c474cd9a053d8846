import { isbot } from 'isbot';
import { stringMemo } from './string-memo.ts';

/** isbot's pattern is costly (several callers ask per request, and every page-cache hit): once per User-Agent. */
const isBotAgent = stringMemo(isbot);

export function isBotRequest(request: { headers: { 'user-agent'?: string | undefined } }): boolean {
  return isBotAgent(request.headers['user-agent'] ?? '');
}
