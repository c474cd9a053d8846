/** A login session as the account page and `GET /api/account/sessions` show it. */
export interface SessionView {
  id: string;
  /** "Chrome on Android" in the page's (or the account's) language (lib/device-name.ts). */
  device: string;
  userAgent: string | null;
  createdAt: string;
  lastSeenAt: string;
  /** The session this request came with. */
  current: boolean;
}

/** What the account page adds to Play's data (plugins/account-settings.ts). */
export interface AccountSettingsData {
  accountSettings: {
    /** A new address waiting for its confirmation link, or null. */
    pendingEmail: string | null;
    sessions: SessionView[];
  };
}
