/**
 * JSON that is safe inside a `<script>` element (the page state, JSON-LD): `<`, `>`, `&` and the
 * two JavaScript line separators are written as \\u escapes, so no value can close the element or
 * break a statement. The one such function for the server render and the head tags.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
