import fp from 'fastify-plugin';
import { BackgroundJobs } from '../lib/background-jobs.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Work that runs after the answer has gone (emails, password reset requests). */
    jobs: BackgroundJobs;
  }
}

/**
 * `app.jobs`; on close, waits stop early and the jobs in flight finish — in preClose, after the
 * requests in flight (whose preClose comes first) and before any onClose hook closes the database
 * or mail under them (onClose hooks run last-registered first: the database's before this one's).
 */
export default fp(
  async (app) => {
    const jobs = new BackgroundJobs(app.log);
    app.decorate('jobs', jobs);
    app.addHook('preClose', async () => jobs.stop());
  },
  { name: 'background-jobs', dependencies: ['requests-in-flight'] },
);
