import fp from 'fastify-plugin';
import { BackgroundJobs } from '../../lib/background-jobs.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Work that runs after the answer has gone (emails, password reset requests). */
    jobs: BackgroundJobs;
  }
}

/**
 * Jobs finish in preClose: after the requests in flight (whose preClose comes first), before the
 * onClose hooks close the database or mail under them.
 */
export default fp(
  async (app) => {
    const jobs = new BackgroundJobs(app.log);
    app.decorate('jobs', jobs);
    app.addHook('preClose', async () => jobs.stop());
  },
  { name: 'background-jobs', dependencies: ['requests-in-flight'] },
);
