/** The client reads `session` and sends it as a Bearer token (decision 0002). */
export const cookieNames = {
  session: 'token',
  flash: 'flash',
  language: 'lang',
} as const;
