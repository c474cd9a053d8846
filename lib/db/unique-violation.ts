/**
 * A write refused because `table.column` must be unique (PostgreSQL names the constraint
 * `<table>_<column>_key` in lib/db/migrations.ts; SQLite names the column in its message).
 */
export function isUniqueViolation(error: unknown, table: string, column: string): boolean {
  const candidate = error as { code?: unknown; constraint?: unknown; message?: unknown } | null;
  if (!candidate || typeof candidate !== 'object') return false;
  const message = typeof candidate.message === 'string' ? candidate.message : '';
  if (candidate.code === '23505') {
    const constraint = `${table}_${column}_key`;
    return candidate.constraint === constraint || message.includes(constraint);
  }
  return candidate.code === 'SQLITE_CONSTRAINT_UNIQUE' && message.includes(`${table}.${column}`);
}
