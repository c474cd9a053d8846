// A language's account strings (client/i18n.ts): vite.config.ts's browser-strings plugin makes
// `locales/xx.json?account` the sections only the account pages show.
declare module '*.json?account' {
  const strings: import('../contract/translator.ts').Resources;
  export default strings;
}
