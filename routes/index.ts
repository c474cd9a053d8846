import type { FastifyInstance } from 'fastify';
import type { AppPart } from '../lib/app-parts.ts';
import accountSettingsRoutes from './api/account-settings.ts';
import accountRoutes from './api/account.ts';
import authRoutes from './api/auth.ts';
import iconRoutes from './api/icons.ts';
import apiNotFoundRoutes from './api/not-found.ts';
import playRoutes from './api/play.ts';
import buildsRoutes, { type BuildsRoutesOptions } from './builds.ts';
import healthRoutes from './health.ts';
import pageRoutes from './pages/index.ts';
import sitemapRoutes from './sitemap.ts';

/** Registered once the plugins have made what the routes use; a part a test leaves out takes its routes. */
export async function registerRoutes(
  app: FastifyInstance,
  included: (part: AppPart) => boolean,
  options: { builds?: BuildsRoutesOptions } = {},
) {
  await app.register(healthRoutes);
  await app.register(apiNotFoundRoutes);
  if (included('accounts')) {
    await app.register(authRoutes, { prefix: '/api/auth' });
    await app.register(accountRoutes, { prefix: '/api/account' });
    await app.register(accountSettingsRoutes, { prefix: '/api/account' });
    await app.register(playRoutes, { prefix: '/api/play' });
  }
  if (included('content')) await app.register(sitemapRoutes);
  if (included('icons')) await app.register(iconRoutes);
  if (included('builds')) await app.register(buildsRoutes, options.builds ?? {});
  if (included('pages')) await app.register(pageRoutes);
}
