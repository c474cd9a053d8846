// SWR imports `use-sync-external-store/shim`, a copy of useSyncExternalStore for React before 18;
// React 19 has its own, so the browser build (vite.config.ts) points SWR's import here.
export { useSyncExternalStore } from 'react';
