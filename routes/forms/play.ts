import type { FastifyInstance } from 'fastify';
import { localePath } from '../../contract/locales.ts';
import { loginThenBackTo } from '../../contract/login-path.ts';
import type { FormActionResult } from '../../contract/page-data.ts';
import { isSelfExclusionPeriod } from '../../contract/play.ts';

/** Play and its breaks without JavaScript (form actions `selfExclusion` and `play`), through `app.play`. */
export default async function playFormRoutes(app: FastifyInstance) {
  // First the period (the page then asks to confirm: it cannot be undone), then the confirmation.
  app.formActions.define('selfExclusion', async ({ locale, fields }, request): Promise<FormActionResult> => {
    const accountPath = localePath(locale, '/account');
    if (!request.user) return { ok: true, redirect: loginThenBackTo(locale, accountPath) };
    const period = fields.period ?? '';
    if (!isSelfExclusionPeriod(period)) {
      return {
        ok: false,
        status: 400,
        values: { period },
        errors: { period: period === '' ? 'required' : 'invalid_value' },
      };
    }
    if (fields.step !== 'confirm') return { ok: false, status: 200, values: { period, step: 'confirm' }, errors: {} };
    const result = await app.play.service.selfExclude(request.user.id, period);
    if (!result.ok) return { ok: false, status: 409, values: { period }, errors: {}, message: 'SELF_EXCLUSION_ACTIVE' };
    return { ok: true, redirect: accountPath };
  });

  // The same outcomes as POST /api/play in the browser. The launch URL's origin comes from the
  // configuration, never from the request.
  app.formActions.define('play', async ({ locale }, request): Promise<FormActionResult> => {
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
  });
}
