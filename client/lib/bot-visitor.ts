/**
 * Whether this browser is a crawler, told here and not in the page's HTML, so an anonymous page is
 * the same for everyone and a CDN may keep it (decision 0044). isbot's pattern (2.4 KB) loads after
 * the page's own code; until it answers, an error keeps the server's HTML, as for a crawler.
 */
let answer: boolean | undefined;
let asking: Promise<boolean> | undefined;

export function detectBot(): Promise<boolean> {
  asking ??= import('isbot').then(
    ({ isbot }) => (answer = isbot(navigator.userAgent)),
    () => (answer = false),
  );
  return asking;
}

/** The answer so far: `undefined` while isbot loads. */
export const botVisitor = (): boolean | undefined => answer;
