/** Parts of the service a test may leave out (`pages`, the renderer, needs the build in dist/). */
export type AppPart = 'accounts' | 'content' | 'icons' | 'builds' | 'pages';
