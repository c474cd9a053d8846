import type { PublicUser } from '../../contract/page-data.ts';
import type { UserRow } from '../db/types.ts';

const userAgentMax = 512;

const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A User-Agent as stored: at most 512 characters, no control characters; null when nothing is left. */
export function storableUserAgent(userAgent: string | undefined): string | null {
  if (!userAgent) return null;
  const clean = userAgent
    // eslint-disable-next-line no-control-regex -- control characters are what it removes
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .slice(0, userAgentMax)
    .replace(loneSurrogate, '\ufffd');
  return clean === '' ? null : clean;
}

export type UserColumns = Pick<
  UserRow,
  'id' | 'email' | 'display_name' | 'locale' | 'created_at' | 'email_verified_at'
>;

/** The columns a PublicUser is made of. */
export const userColumns = ['id', 'email', 'display_name', 'locale', 'created_at', 'email_verified_at'] as const;

export function toPublicUser(row: UserColumns): PublicUser {
  return {
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    locale: row.locale,
    createdAt: new Date(row.created_at).toISOString(),
    emailVerified: row.email_verified_at !== null,
  };
}
