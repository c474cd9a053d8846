import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fp from 'fastify-plugin';
import { projectRoot } from '../lib/build-info.ts';
import { deviceName } from '../lib/device-name.ts';
import { localePath, locales, splitLocale, type Locale } from '../contract/locales.ts';
import { loginThenBackTo } from '../contract/login-path.ts';
import type { PageDataArgs, PublicUser } from '../contract/page-data.ts';
import type { SeoData } from '../contract/seo.ts';
import { PlayService } from '../lib/play/service.ts';
import type { AccountPageData } from '../contract/play.ts';

export interface PlayPluginOptions {
  /** The time source for play sessions, launch tokens and breaks (tests move it). */
  now?: () => Date;
  /** Launch-token key instead of PLAY_SECRET (tests). */
  secret?: string;
  /** How long a launch token may be used. Default 60 s. */
  tokenTtlMs?: number;
  /** How often long-expired launch tokens are deleted; 0 turns it off. Default one hour. */
  sweepIntervalMs?: number;
}

export interface Play {
  readonly service: PlayService;
  /** Where Play sends the player: PLAY_URL, or this site's own `/play` page, with `launch=<token>`. */
  launchUrl(locale: Locale, token: string): string;
  /**
   * Play pressed by a logged-in player, through the API or the form posted without JavaScript:
   * the same checks in one place (a break, an unverified address when that is required), then a
   * play session and the launch URL.
   */
  start(user: PublicUser, locale: Locale, userAgent: string | undefined): Promise<PlayStart>;
  /** Play's part of the account page: the latest play sessions (devices named) and the break. */
  accountPage(args: PageDataArgs): Promise<AccountPageData & { seo: SeoData }>;
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

/** The site's own play destination, in either language. */
const launchPage = /^(?:\/th)?\/play\/?$/;

/**
 * Play and responsible play: `app.play` starts a play session with a signed, short-lived,
 * single-use launch token and verifies one; the `/account` and `/play` page data; the launch
 * address opened as a document. Its endpoints are routes/api/play.ts, routes/api/account.ts and
 * routes/forms/play.ts (Play and breaks without JavaScript).
 */
export default fp<PlayPluginOptions>(
  async (app, options) => {
    const { config } = app;
    let secret: string | Buffer | undefined = options.secret ?? config.playSecret;
    if (!secret) {
      // lib/config.ts refuses PLAY_URL without PLAY_SECRET in production; this is the default run.
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

    // The /account and /play pages: data for the logged-in user (route middleware `auth` keeps
    // others out), with a head of their own: titled, and never indexed.
    const strings = Object.fromEntries(
      locales.map((locale) => [
        locale,
        JSON.parse(readFileSync(resolve(projectRoot, 'locales', `${locale}.json`), 'utf8')),
      ]),
    ) as Record<Locale, { site: { tagline: string }; accountPage: { title: string }; nav: { play: string } }>;
    const privateSeo = (locale: Locale, path: string, title: string): SeoData => ({
      title,
      description: strings[locale].site.tagline,
      path,
      alternates: [...locales],
      type: 'website',
      breadcrumbs: [],
      noindex: true,
    });
    const seo = Object.fromEntries(
      locales.map((locale) => [locale, privateSeo(locale, '/account', strings[locale].accountPage.title)]),
    ) as Record<Locale, SeoData>;
    const playSeo = Object.fromEntries(
      locales.map((locale) => [locale, privateSeo(locale, '/play', strings[locale].nav.play)]),
    ) as Record<Locale, SeoData>;
    const play: Play = {
      service,
      // Play's part of the account page (plugins/account-settings.ts defines the page's data
      // source). Devices are named in the page's language on the server: the parser stays out of
      // the browser bundle.
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
        // This site's own page, as a path: the browser treats it as internal whatever origin it
        // reached us by (a proxy, 127.0.0.1, a public name).
        return `${localePath(locale, '/play')}?launch=${token}`;
      },
      async start(user, locale, userAgent) {
        if (config.requireVerifiedEmailForPlay && !user.emailVerified) return { ok: false, code: 'EMAIL_NOT_VERIFIED' };
        const started = await service.startPlay({ userId: user.id, locale, userAgent });
        if (!started.ok) return { ok: false, code: 'PLAY_SELF_EXCLUDED', until: started.selfExclusion.until };
        return { ok: true, url: this.launchUrl(locale, started.token), playSessionId: started.playSessionId };
      },
    };
    app.decorate('play', play);

    // The /play page: the player's latest play sessions, so that `/play?session=<id>` (where a
    // verified launch lands) shows who is playing and since when, on a reload too.
    app.pageData.define('play', async ({ user, locale }) => ({
      playSessions: user ? (await service.recentSessions(user.id)).map(({ id, startedAt }) => ({ id, startedAt })) : [],
      seo: playSeo[locale],
    }));

    // This site's own destination opened with a launch token: Play pressed without JavaScript
    // (the form's 303), or an address typed or pasted. The server spends the token as the player
    // (their own only) and answers 303 to `/play?session=<id>`, or `?problem=<reason>`: the
    // token leaves the address bar before anything renders, the page never waits for a script,
    // and a reload shows the same session. Such an answer is made for one visitor and one
    // token: never stored (no-store, also for the site's page cache) and never sent on as a
    // Referer. Logged out: login, then Play (a token is of no use to anyone else).
    app.addHook('preHandler', async (request, reply) => {
      if ((request.method !== 'GET' && request.method !== 'HEAD') || request.routeOptions.url !== '/*') return;
      const [pathname = '', search = ''] = request.url.split(/\?(.*)/s);
      const token = search.includes('launch=') ? new URLSearchParams(search).get('launch') : null;
      if (token === null || !launchPage.test(pathname)) return;
      reply.header('cache-control', 'no-store').header('referrer-policy', 'same-origin');
      const { locale } = splitLocale(pathname);
      const playPath = localePath(locale, '/play');
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
  { name: 'play', dependencies: ['config', 'database', 'accounts', 'page-data'] },
);
