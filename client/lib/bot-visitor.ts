/**
 * Whether this browser is a crawler, told here and not in the page's HTML, so an anonymous page is
 * the same for everyone and a CDN may keep it (decision 0044). isbot's pattern (2.4 KB) loads once
 * the page is hydrating, not before; until it answers, an error keeps the server's HTML, as for a
 * crawler. The answer is also `<html data-visitor="bot|person">`.
 */
let answer: boolean | undefined;
let asking: Promise<boolean> | undefined;

export function detectBot(): Promise<boolean> {
  asking ??= import('isbot')
    .then(
      ({ isbot }) => isbot(navigator.userAgent),
      () => false,
    )
    .then((bot) => {
      document.documentElement.dataset.visitor = bot ? 'bot' : 'person';
      return (answer = bot);
    });
  return asking;
}

/** The answer so far: `undefined` while isbot loads. */
export const botVisitor = (): boolean | undefined => answer;
