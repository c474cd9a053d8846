/**
 * Compiles index.html once into static parts and named slots (`<!-- name -->`), so each
 * response is a plain string join: no parsing on the hot path.
 */
export function compileHtmlTemplate(source: string): (values: Record<string, string>) => string {
  const parts = source.split(/<!--\s*([a-zA-Z]+)\s*-->/);
  return (values) => {
    let html = '';
    for (let index = 0; index < parts.length; index++) {
      html += index % 2 === 0 ? parts[index] : (values[parts[index]!] ?? '');
    }
    return html;
  };
}
