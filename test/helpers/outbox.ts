import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';

export interface OutboxMessage {
  file: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  language: string | undefined;
  /** Every link of the plain-text part. */
  links: string[];
  raw: string;
  parsed: ParsedMail;
}

function addressOf(parsed: ParsedMail): string {
  const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
  return to?.value[0]?.address ?? '';
}

/** The `.eml` files of an outbox folder, oldest first, parsed as a mail program would. */
export async function readOutbox(dir: string): Promise<OutboxMessage[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.eml')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const messages: OutboxMessage[] = [];
  for (const name of names) {
    const raw = await readFile(join(dir, name), 'utf8');
    messages.push(parseMessage(raw, await simpleParser(raw), name));
  }
  return messages;
}

export function parseMessage(raw: string, parsed: ParsedMail, file = ''): OutboxMessage {
  const text = parsed.text ?? '';
  return {
    file,
    to: addressOf(parsed),
    subject: parsed.subject ?? '',
    text,
    html: typeof parsed.html === 'string' ? parsed.html : '',
    language: parsed.headers.get('content-language') as string | undefined,
    links: [...text.matchAll(/https?:\/\/\S+/g)].map((match) => match[0]),
    raw,
    parsed,
  };
}

/** The messages sent to one address. */
export async function messagesTo(dir: string, address: string): Promise<OutboxMessage[]> {
  return (await readOutbox(dir)).filter((message) => message.to === address);
}

/** The token of the latest email to `address` that links to `path` (`/reset-password` ...). */
export async function latestToken(dir: string, address: string, path: string): Promise<string> {
  const messages = (await messagesTo(dir, address)).filter((message) =>
    message.links.some((link) => new URL(link).pathname.endsWith(path)),
  );
  const latest = messages.at(-1);
  if (!latest) throw new Error(`No email to ${address} links to ${path}`);
  return tokenOf(latest, path);
}

/** The token of the last link to `path` in a message. */
export function tokenOf(message: OutboxMessage, path: string): string {
  const link = message.links.filter((candidate) => new URL(candidate).pathname.endsWith(path)).at(-1);
  if (!link) throw new Error(`No link to ${path} in "${message.subject}"`);
  return new URL(link).searchParams.get('token') ?? '';
}
