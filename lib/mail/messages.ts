import type { Locale } from '../../contract/locales.ts';
import { escapeHtml } from '../../contract/escape-html.ts';
import { serverT } from '../translations.ts';

/** The emails the site sends, each in the recipient's language (strings under `email.*` in locales/). */
export type MailKind = 'passwordReset' | 'verifyEmail' | 'confirmEmailChange' | 'emailChanged';

export interface MailValues {
  name: string;
  /** Absolute, from PUBLIC_URL. */
  link?: string;
  /** How long the link works: whichever the message says. */
  minutes?: number;
  hours?: number;
  newEmail?: string;
}

export interface ComposedMail {
  kind: MailKind;
  to: string;
  locale: Locale;
  subject: string;
  text: string;
  html: string;
}

/** What each kind says, as keys under `email.{kind}`: paragraphs before the button, the button, paragraphs after. */
const layout: Record<MailKind, { before: string[]; action?: string; after: string[] }> = {
  passwordReset: { before: ['intro', 'validity'], action: 'action', after: ['ignore'] },
  verifyEmail: { before: ['intro', 'validity'], action: 'action', after: ['ignore'] },
  confirmEmailChange: { before: ['intro', 'validity'], action: 'action', after: ['ignore'] },
  emailChanged: { before: ['intro'], after: ['notYou'] },
};

export function composeMail(kind: MailKind, locale: Locale, to: string, values: MailValues): ComposedMail {
  const t = serverT(locale);
  const say = (key: string) => t(`email.${kind}.${key}`, { ...values, count: values.minutes ?? values.hours ?? 0 });
  const parts = layout[kind];
  const greeting = t('email.greeting', { name: values.name });
  const before = parts.before.map(say);
  const after = parts.after.map(say);
  const action = parts.action && values.link ? { label: say(parts.action), link: values.link } : undefined;
  const signature = t('email.signature');
  const footer = t('email.footer');
  const subject = say('subject');

  const text = [
    greeting,
    ...before,
    ...(action ? [`${action.label}:\n${action.link}`] : []),
    ...after,
    signature,
    `--\n${footer}`,
  ].join('\n\n');

  const paragraph = (value: string) => `<p style="margin:0 0 16px">${escapeHtml(value)}</p>`;
  const html = [
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">`,
    `<title>${escapeHtml(subject)}</title></head>`,
    "<body style=\"margin:0;padding:24px;background:#f6f7f9;font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans Thai',sans-serif;color:#1b1f24;line-height:1.5\">",
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">',
    paragraph(greeting),
    ...before.map(paragraph),
    action
      ? `<p style="margin:0 0 16px"><a href="${escapeHtml(action.link)}" style="display:inline-block;background:#0b6e4f;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p>` +
        `<p style="margin:0 0 16px;font-size:14px;color:#4a5360;word-break:break-all">${escapeHtml(t('email.linkFallback'))}<br><a href="${escapeHtml(action.link)}" style="color:#0b6e4f">${escapeHtml(action.link)}</a></p>`
      : '',
    ...after.map(paragraph),
    paragraph(signature),
    `<p style="margin:24px 0 0;font-size:13px;color:#4a5360">${escapeHtml(footer)}</p>`,
    '</div></body></html>',
  ].join('');

  return { kind, to, locale, subject, text, html };
}
