/**
 * JSON that is safe inside an inline `<script>`: `<` cannot close the tag and the two
 * line separators JavaScript treats as newlines cannot break the statement.
 */
export function serializeForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
