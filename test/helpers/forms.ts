/**
 * A browser without JavaScript: pages fetched and forms posted as plain urlencoded bodies, from
 * the site's own origin (the same-origin check of lib/same-origin.ts lets them through).
 */
import type { FastifyInstance } from 'fastify';
import { browserUserAgent } from './app.ts';

interface WithCookies {
  cookies: { name: string; value: string }[];
}

/**
 * `post(url, form, cookie?)` posts `form` urlencoded with `origin` as Origin and Host (`postJson`
 * asking for the JSON answer, as with JavaScript); `page(url, cookie?)` fetches a page. Both as a browser, with `cookie` as the Cookie header.
 */
export function formClient(app: FastifyInstance, origin = 'http://localhost:3000') {
  const host = new URL(origin).host;
  const send = (accept?: string) => (url: string, form: Record<string, string>, cookie?: string) =>
    app.inject({
      method: 'POST',
      url,
      headers: {
        origin,
        host,
        'user-agent': browserUserAgent,
        ...(accept ? { accept } : {}),
        'content-type': 'application/x-www-form-urlencoded',
        ...(cookie ? { cookie } : {}),
      },
      payload: new URLSearchParams(form).toString(),
    });
  const post = send();
  /** `post` as the browser's form action with JavaScript sends it: the answer is JSON. */
  const postJson = send('application/json');
  const page = (url: string, cookie?: string) =>
    app.inject({ url, headers: { 'user-agent': browserUserAgent, ...(cookie ? { cookie } : {}) } });
  return { post, postJson, page };
}

/** The session cookie a response sets (`token`), if it sets one. */
export const sessionCookie = (response: WithCookies) => response.cookies.find((cookie) => cookie.name === 'token');

/** The session cookie's value a response sets ('' when it clears it), if it sets one. */
export const sessionToken = (response: WithCookies) => sessionCookie(response)?.value;
