import { isStorageFull } from './storage-full.ts';

/** Errors that mean "the database cannot be reached right now" (answered 503), not "this query is wrong". */
const connectionCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, and the connection_exception class.
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  // PostgreSQL's insufficient_resources (a full disk, 53100, is storage-full.ts's).
  '53000',
  '53200',
  '53300',
]);

// SQLite: the file could not be locked or read, or the disk failed (a full disk is
// lib/db/storage-full.ts's).
const sqliteCodes = /^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN)/;

const connectionMessages =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  const candidate = error as { code?: unknown; message?: unknown; errors?: unknown } | null;
  if (!candidate || typeof candidate !== 'object') return false;
  if (typeof candidate.code === 'string' && (connectionCodes.has(candidate.code) || sqliteCodes.test(candidate.code))) {
    return true;
  }
  if (typeof candidate.message === 'string' && connectionMessages.test(candidate.message)) return true;
  // Node's AggregateError when every address of the host refused (IPv4 and IPv6).
  return Array.isArray(candidate.errors) && candidate.errors.some((inner) => isDatabaseUnavailable(inner));
}

/** The database's state, not the request's (unreachable, or full): plugins/app/errors.ts answers 503. */
export function isDatabaseFault(error: unknown): boolean {
  return isDatabaseUnavailable(error) || isStorageFull(error);
}
