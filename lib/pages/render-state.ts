import type { FlashCode } from '../../contract/flash.ts';
import type { FormState, PublicUser } from '../../contract/page-data.ts';
import type { RenderState } from '../../contract/render-state.ts';
import { pageRouteId } from '../../contract/route-tree.ts';
import type { PageOutcome } from './pipeline.ts';

export interface Visit {
  url: URL;
  user: PublicUser | null;
  isBot: boolean;
  flash?: FlashCode | undefined;
  /** A form posted to this page that did not succeed: what it shows, and the answer's status. */
  action?: { status: number; state: FormState };
}

/** What the renderer is given for a page outcome (a redirect never renders). */
export function renderStateOf(outcome: Exclude<PageOutcome, { type: 'redirect' }>, visit: Visit): RenderState {
  const { url, action } = visit;
  const { locale, route } = outcome.target;
  return {
    pathname: url.pathname,
    search: url.search,
    locale,
    routeId: pageRouteId(locale, route),
    isBot: visit.isBot,
    user: visit.user,
    ...(visit.flash ? { flash: visit.flash } : {}),
    status: outcome.type === 'error' ? outcome.status : (action?.status ?? outcome.status),
    ...(outcome.type === 'page' ? { data: outcome.data } : {}),
    ...(action ? { action: action.state } : {}),
    ...(outcome.type === 'error' ? { error: outcome.error } : {}),
  };
}
