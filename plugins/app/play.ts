import { randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';
import { serverT } from '../../lib/translations.ts';
import { deviceName } from '../../lib/device-name.ts';
import { localePath, locales, type Locale } from '../../contract/locales.ts';
import { loginThenBackTo } from '../../contract/login-path.ts';
import type { PageDataArgs, PublicUser } from '../../contract/page-data.ts';
import type { SeoData } from '../../contract/seo.ts';
import { PlayService } from '../../lib/play/service.ts';
import type { AccountPageData, PlayPageData } from '../../contract/play.ts';
import { pageOf } from '../../lib/pages/page-request.ts';

export interface PlayPluginOptions {
  now?: () => Date;
  /** Launch-token key instead of PLAY_SECRET (tests). */
  secret?: string;
  tokenTtlMs?: number;
  /** How often long-expired launch tokens are deleted; 0 turns it off. Default one hour. */
  sweepIntervalMs?: number;
}

export interface Play {
  readonly service: PlayService;
  /** Where Play sends the player: PLAY_URL, or this site's own `/play` page, with `launch=<token>`. */
  launchUrl(locale: Locale, token: string): string;
  /** Play pressed (API or form): the checks (a break, an unverified address), a session, the launch URL. */
  start(user: PublicUser, locale: Locale, userAgent: string | undefined): Promise<PlayStart>;
  accountPage(args: PageDataArgs): Promise<AccountPageData & { seo: SeoData }>;
  /** `/play?session=<id>`, where a verified launch lands: the player's recent sessions. */
  playPage(args: PageDataArgs): Promise<PlayPageData & { seo: SeoData }>;
}

export type PlayStart =
  | { ok: true; url: string; playSessionId: string }
  | { ok: false; code: 'PLAY_SELF_EXCLUDED'; until: string }
  | { ok: false; code: 'EMAIL_NOT_VERIFIED' };

declare module 'fastify' {
  interface FastifyInstance {
    play: Play;
  }
}

const defaultLaunchTokenTtlMs = 60_000;

/**
 * Play sessions with signed, single-use launch tokens (decision 0007), the `/play` page data and
 * the launch address opened as a document. Routes: routes/api/play.ts, routes/api/account.ts,
 * client/pages/play.server.ts.
 */
export default fp<PlayPluginOptions>(
  async (app, options) => {
    const { config } = app;
    let secret: string | Buffer | undefined = options.secret ?? config.playSecret;
    if (!secret) {
      // lib/config.ts refuses this in production with PLAY_URL or DATABASE_URL.
      secret = randomBytes(32);
      app.log.warn(
        'PLAY_SECRET is not set: launch tokens are signed with a random key made at start, so only this process can verify them ' +
          '(set PLAY_SECRET, 32 characters or more, for several replicas or a play destination of your own)',
      );
    }
    const now = options.now ?? (() => new Date());
    const service = new PlayService({
      db: app.db,
      now,
      secret,
      tokenTtlMs: options.tokenTtlMs ?? defaultLaunchTokenTtlMs,
    });

    const playUrl = config.playUrl ? new URL(config.playUrl) : undefined;

    // The /account and /play pages are the logged-in user's: never indexed.
    const privateSeo = (locale: Locale, path: string, title: string): SeoData => ({
      title,
      description: serverT(locale)('site.tagline'),
      path,
      alternates: [...locales],
      type: 'website',
      breadcrumbs: [],
      noindex: true,
    });
    const seo = Object.fromEntries(
      locales.map((locale) => [locale, privateSeo(locale, '/account', serverT(locale)('accountPage.title'))]),
    ) as Record<Locale, SeoData>;
    const playSeo = Object.fromEntries(
      locales.map((locale) => [locale, privateSeo(locale, '/play', serverT(locale)('nav.play'))]),
    ) as Record<Locale, SeoData>;
    const play: Play = {
      service,
      // Devices named on the server keep the parser out of the browser bundle (decision 0008).
      async accountPage({ user, locale }) {
        const overview = user ? await service.overview(user.id) : { playSessions: [], selfExclusion: null };
        return {
          ...overview,
          playSessions: overview.playSessions.map((session) => ({
            ...session,
            device: deviceName(session.userAgent, locale),
          })),
          seo: seo[locale],
        };
      },
      launchUrl(locale, token) {
        if (playUrl) {
          const url = new URL(playUrl);
          url.searchParams.set('launch', token);
          return url.href;
        }
        // A path, so it is internal whatever origin the browser reached us by.
        return `${localePath(locale, '/play')}?launch=${token}`;
      },
      async playPage({ user, locale }) {
        const sessions = user ? await service.recentSessions(user.id) : [];
        return {
          playSessions: sessions.map(({ id, startedAt, userAgent }) => ({
            id,
            startedAt,
            device: deviceName(userAgent, locale),
          })),
          destination: playUrl?.host ?? null,
          seo: playSeo[locale],
        };
      },
      async start(user, locale, userAgent) {
        if (config.requireVerifiedEmailForPlay && !user.emailVerified) return { ok: false, code: 'EMAIL_NOT_VERIFIED' };
        const started = await service.startPlay({ userId: user.id, locale, userAgent });
        if (!started.ok) return { ok: false, code: 'PLAY_SELF_EXCLUDED', until: started.selfExclusion.until };
        return { ok: true, url: this.launchUrl(locale, started.token), playSessionId: started.playSessionId };
      },
    };
    app.decorate('play', play);

    // A page that declares `launchToken` (the site's own destination: Play without JavaScript, or
    // a pasted address) spends the token as the player, then 303, so it leaves the address bar
    // before anything renders. Made for one visitor: never stored, never sent on as a Referer.
    app.addHook('preHandler', async (request, reply) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') return;
      const page = pageOf(request);
      if (!page?.route.launchToken || page.answer !== 'document') return;
      const search = request.url.split(/\?(.*)/s)[1] ?? '';
      const token = search.includes('launch=') ? new URLSearchParams(search).get('launch') : null;
      if (token === null) return;
      reply.header('cache-control', 'no-store').header('referrer-policy', 'same-origin');
      const { locale } = page;
      const playPath = localePath(locale, `/${page.route.path}`);
      if (!request.user) return reply.redirect(loginThenBackTo(locale, playPath), 303);
      const verified = await service.verify(token, { player: request.user.id });
      if (verified.ok)
        request.log.info({ playSession: verified.launch.session.id }, 'launch token verified by the player');
      return reply.redirect(
        verified.ok ? `${playPath}?session=${verified.launch.session.id}` : `${playPath}?problem=${verified.reason}`,
        303,
      );
    });

    const sweepMs = options.sweepIntervalMs ?? 60 * 60 * 1000;
    if (sweepMs > 0) {
      app.jobs.every('launch token sweep', sweepMs, async () => {
        const count = await service.sweep();
        if (count > 0) app.log.info({ count }, 'deleted expired launch tokens');
      });
    }
  },
  { name: 'play', dependencies: ['config', 'database', 'accounts'] },
);
