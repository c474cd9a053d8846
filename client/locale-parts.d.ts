// A language's account strings (client/i18n.ts): vite.config.ts's browser-strings plugin makes
// `locales/<locale>.json?account` the sections only the account pages show.
declare module '*.json?account' {
  // An import() type: a top-level import would make this file a module, where a wildcard module cannot be declared.
  // eslint-disable-next-line @typescript-eslint/consistent-type-imports
  const strings: import('../contract/translations.ts').Resources;
  export default strings;
}

// The keys only the play page shows (`?play`), bundled with that page.
declare module '*.json?play' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-imports
  const strings: import('../contract/translations.ts').Resources;
  export default strings;
}
