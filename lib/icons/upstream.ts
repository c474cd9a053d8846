import type { IconifyAlias, IconifyIcon, IconifyJSON } from '@iconify/types';
import { matchIconName } from '@iconify/utils';
import type { Tracing } from '../tracing.ts';

/**
 * The Iconify API (or a mirror), for sets that are not installed. Callers pass validated names:
 * they go into the URL as they are. Nothing that comes back is trusted (decision 0027).
 */

export type UpstreamFailure = 'failed' | 'timeout';

export class UpstreamError extends Error {
  override name = 'UpstreamError';
  constructor(
    readonly kind: UpstreamFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface UpstreamRequest {
  /** Without a trailing slash. */
  baseUrl: string;
  collection: string;
  names: readonly string[];
  timeoutMs: number;
  maxBytes: number;
  /** While tracing is on: the call is a client span of the request's. */
  tracing?: Tracing | undefined;
}

const numberProps = ['left', 'top', 'width', 'height', 'rotate'] as const;
const booleanProps = ['hFlip', 'vFlip', 'hidden'] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Only the known icon properties, with the right types. */
function copyProps(source: Record<string, unknown>, target: Record<string, unknown>): void {
  for (const key of numberProps) if (typeof source[key] === 'number') target[key] = source[key];
  for (const key of booleanProps) if (typeof source[key] === 'boolean') target[key] = source[key];
}

/**
 * An upstream answer rebuilt with prototype-free tables and well-named icons only; null if
 * malformed. The bodies are still the upstream's: `sanitizeIconBodies` cleans them.
 */
export function sanitizeIconSet(data: unknown, prefix: string): IconifyJSON | null {
  if (!isObject(data) || data.prefix !== prefix || !isObject(data.icons)) return null;
  const icons = Object.create(null) as Record<string, IconifyIcon>;
  for (const [name, icon] of Object.entries(data.icons)) {
    if (!matchIconName.test(name) || !isObject(icon) || typeof icon.body !== 'string') continue;
    const clean: Record<string, unknown> = { body: icon.body };
    copyProps(icon, clean);
    icons[name] = clean as unknown as IconifyIcon;
  }
  const aliases = Object.create(null) as Record<string, IconifyAlias>;
  if (isObject(data.aliases)) {
    for (const [name, alias] of Object.entries(data.aliases)) {
      if (
        !matchIconName.test(name) ||
        !isObject(alias) ||
        typeof alias.parent !== 'string' ||
        !matchIconName.test(alias.parent)
      )
        continue;
      const clean: Record<string, unknown> = { parent: alias.parent };
      copyProps(alias, clean);
      aliases[name] = clean as unknown as IconifyAlias;
    }
  }
  const set: IconifyJSON = { prefix, icons, aliases };
  for (const key of ['left', 'top', 'width', 'height'] as const) {
    if (typeof data[key] === 'number') set[key] = data[key];
  }
  if (typeof data.lastModified === 'number') set.lastModified = data.lastModified;
  return set;
}

/** Sanitises every body in place; an icon whose body is not readable SVG is left out. */
export async function sanitizeIconBodies(set: IconifyJSON): Promise<IconifyJSON> {
  const { sanitizeSvgBody } = await import('./svg-sanitizer.ts');
  for (const [name, icon] of Object.entries(set.icons)) {
    const body = sanitizeSvgBody(icon.body);
    if (body === null) delete set.icons[name];
    else icon.body = body;
  }
  return set;
}

async function readText(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) throw new UpstreamError('failed', `Upstream answer too large (${declared} bytes).`);
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new UpstreamError('failed', 'Upstream answer too large.');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

interface CallReport {
  status(code: number): void;
  failure(type: string): void;
}

/** Null for an unknown collection (a 404 status or the Iconify API's `404` body); else throws UpstreamError. */
export function fetchUpstreamIcons(request: UpstreamRequest): Promise<IconifyJSON | null> {
  const url = `${request.baseUrl}/${request.collection}.json?icons=${request.names.join(',')}`;
  if (!request.tracing) return fetchIcons(request, url);
  return request.tracing.httpClient('GET', url, (report) =>
    fetchIcons(request, url, report).catch((error: unknown) => {
      if (error instanceof UpstreamError) report.failure(error.kind);
      throw error;
    }),
  );
}

async function fetchIcons(request: UpstreamRequest, url: string, report?: CallReport): Promise<IconifyJSON | null> {
  const signal = AbortSignal.timeout(request.timeoutMs);
  let text: string;
  let status: number;
  try {
    const response = await fetch(url, { signal, headers: { accept: 'application/json' }, redirect: 'error' });
    status = response.status;
    report?.status(status);
    if (status !== 200) {
      await response.body?.cancel().catch(() => {});
      text = '';
    } else {
      text = await readText(response, request.maxBytes);
    }
  } catch (error) {
    if (error instanceof UpstreamError) throw error;
    if (signal.aborted) {
      throw new UpstreamError('timeout', `Upstream did not answer within ${request.timeoutMs} ms.`, { cause: error });
    }
    throw new UpstreamError('failed', 'Upstream request failed.', { cause: error });
  }
  if (status === 404) return null;
  if (status !== 200) throw new UpstreamError('failed', `Upstream answered HTTP ${status}.`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UpstreamError('failed', 'Upstream answered invalid JSON.', { cause: error });
  }
  if (data === 404) return null;
  const set = sanitizeIconSet(data, request.collection);
  if (!set) throw new UpstreamError('failed', 'Upstream answered something that is not an icon set.');
  return sanitizeIconBodies(set);
}
