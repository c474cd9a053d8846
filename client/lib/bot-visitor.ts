/**
 * Whether this browser is a crawler, told here so a page's HTML is the same for everyone (decision
 * 0044); isbot loads as hydration starts. Also `<html data-visitor="bot|person">`.
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
