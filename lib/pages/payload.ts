import { encodeRedirectLocation } from '../../contract/navigation-guard.ts';
import { strongEtag } from '../etag.ts';
import type { PageOutcome } from './pipeline.ts';

/** `{path}/_payload.json`: what the page's data source gave plus the build id, a redirect, or the error. */
export interface Payload {
  status: number;
  body:
    { buildId: string; data: unknown } | { redirect: string } | { statusCode: number; message: string; fatal: boolean };
}

export function payloadOf(outcome: PageOutcome, buildId: string): Payload {
  if (outcome.type === 'redirect') return { status: 200, body: { redirect: encodeRedirectLocation(outcome.location) } };
  if (outcome.type === 'error') {
    const { statusCode, message, fatal } = outcome.error;
    return { status: outcome.status, body: { statusCode, message, fatal } };
  }
  return { status: 200, body: { buildId, data: outcome.data } };
}

/** Content data is shared and frozen: its JSON and ETag are made once per content version. */
const serialised = new WeakMap<object, { buildId: string; json: string; etag: string }>();

export function serialisePayload(payload: Payload): { json: string; etag: string } {
  const { body } = payload;
  const data = 'data' in body ? body.data : undefined;
  const cacheable = payload.status === 200 && 'buildId' in body && typeof data === 'object' && data !== null;
  if (cacheable) {
    const cached = serialised.get(data);
    if (cached && cached.buildId === body.buildId) return cached;
  }
  const json = JSON.stringify(body);
  const answer = { json, etag: strongEtag(json) };
  if (cacheable) serialised.set(data, { buildId: body.buildId, ...answer });
  return answer;
}
