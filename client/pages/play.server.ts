import { localePath } from '../../contract/locales.ts';
import { loginThenBackTo } from '../../contract/login-path.ts';
import type { FormActionResult } from '../../contract/page-data.ts';
import type { FormAction, PageLoader } from '../../lib/pages/page-server.ts';

/**
 * Play without JavaScript: the same outcomes as POST /api/play, which the button uses with it. The
 * launch URL's origin comes from the configuration, never from the request.
 */
export const action: FormAction = async ({ locale }, request): Promise<FormActionResult> => {
  const app = request.server;
  const playPath = localePath(locale, '/play');
  if (!request.user) return { ok: true, redirect: loginThenBackTo(locale, playPath) };
  const started = await app.play.start(request.user, locale, request.headers['user-agent']);
  if (!started.ok) {
    return {
      ok: false,
      status: 403,
      values: started.code === 'PLAY_SELF_EXCLUDED' ? { until: started.until } : {},
      errors: {},
      message: started.code,
    };
  }
  request.log.info({ playSession: started.playSessionId }, 'play session started');
  return { ok: true, redirect: started.url, ...(app.config.playUrl ? { external: true } : {}) };
};

export const loader = ((app, args) => app.play.playPage(args)) satisfies PageLoader;
