export interface SessionView {
  id: string;
  /** "Chrome on Android", translated (lib/device-name.ts). */
  device: string;
  userAgent: string | null;
  createdAt: string;
  lastSeenAt: string;
  current: boolean;
}

/** What the account page adds to Play's data. */
export interface AccountSettingsData {
  accountSettings: {
    /** Waiting for its confirmation link. */
    pendingEmail: string | null;
    sessions: SessionView[];
  };
}
