import type { FormState } from '../../contract/page-data.ts';

/**
 * The last submission's state if it came from the account page's form with this `intent`
 * ("take a break" has none): the page holds several forms, and only the one submitted shows it.
 */
export function formStateFor(actionData: unknown, intent: string): FormState | undefined {
  const state = actionData as FormState | undefined;
  if (!state || typeof state !== 'object' || !state.values) return undefined;
  return (state.values.intent ?? 'selfExclusion') === intent ? state : undefined;
}
