/** The state a server-rendered page carries for the browser (client/page-state.ts), read from its HTML. */
export function pageStateOf(html: string): { runtime: Record<string, unknown>; router?: Record<string, unknown> } {
  const json = /<script type="application\/json" id="asdas-state">(.*?)<\/script>/s.exec(html)?.[1];
  if (!json) throw new Error('no page state in the page');
  return JSON.parse(json) as never;
}
