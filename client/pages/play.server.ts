import { localePath } from '../../contract/locales.ts';
import { loginThenBackTo } from '../../contract/login-path.ts';
import type { FormActionResult } from '../../contract/page-data.ts';
import { perform, play } from '../../lib/auth/operations.ts';
import type { FormAction, PageLoader } from '../../lib/pages/page-server.ts';

/**
 * Play without JavaScript: POST /api/play's operation, which the button uses with it. The
 * launch URL's origin comes from the configuration, never from the request.
 */
export const action: FormAction = async ({ locale }, request, reply): Promise<FormActionResult> => {
  if (!request.user) return { ok: true, redirect: loginThenBackTo(locale, localePath(locale, '/play')) };
  const started = await perform(play, request, reply, { locale });
  if (!started.ok) {
    return {
      ok: false,
      status: 403,
      values: started.code === 'PLAY_SELF_EXCLUDED' ? { until: started.until } : {},
      errors: {},
      message: started.code,
    };
  }
  return { ok: true, redirect: started.url, ...(request.server.config.playUrl ? { external: true } : {}) };
};

export const loader = ((app, args) => app.play.playPage(args)) satisfies PageLoader;
