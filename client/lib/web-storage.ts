/**
 * The browser's `localStorage` or `sessionStorage`, or null where there is none (the server, an old
 * browser) or reading it throws (storage blocked by the visitor's settings).
 */
export function webStorage(kind: 'localStorage' | 'sessionStorage'): Storage | null {
  try {
    return typeof window !== 'undefined' && window[kind] ? window[kind] : null;
  } catch {
    return null;
  }
}
