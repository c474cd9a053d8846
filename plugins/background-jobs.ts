import fp from 'fastify-plugin';
import { BackgroundJobs } from '../lib/background-jobs.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Work that runs after the answer has gone (emails, password reset requests). */
    jobs: BackgroundJobs;
  }
}

/** `app.jobs`; on close, waits stop early and the jobs in flight finish. */
export default fp(
  async (app) => {
    const jobs = new BackgroundJobs(app.log);
    app.decorate('jobs', jobs);
    app.addHook('onClose', async () => jobs.stop());
  },
  { name: 'background-jobs' },
);
