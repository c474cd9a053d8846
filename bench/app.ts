import type { FastifyInstance } from 'fastify';
import { type BuildAppOptions, buildApp as buildSiteApp } from '../app.ts';
import baselineRoutes from './baseline-routes.ts';

/** At the root, after the pages and before ready: the baseline goes through every hook a page does. */
export async function registerBenchRoutes(app: FastifyInstance): Promise<void> {
  await app.register(baselineRoutes);
}

/** The site's app with the bench's routes: what server.ts imports as app.ts in the bench's bundle (bench/server-bundle.ts). */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const app = await buildSiteApp(options);
  try {
    await registerBenchRoutes(app);
  } catch (error) {
    await app.close().catch(() => {});
    throw error;
  }
  return app;
}
