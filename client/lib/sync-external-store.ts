// SWR imports `use-sync-external-store/shim` (React < 18 support); React 19 has the hook itself,
// so the production client build points the shim here (vite.config.ts): smaller first load.
export { useSyncExternalStore } from 'react';
