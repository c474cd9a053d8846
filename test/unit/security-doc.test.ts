/**
 * docs/security.md states each limit as the code enforces it: every number it gives is read here
 * from the defaults (lib/config.ts, lib/rate-limit/settings.ts) or the constants of the code (app.ts,
 * plugins/app/connection-limit.ts) and must appear as written, so a
 * changed default fails until the page says the new number.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { bodyLimitBytes } from '../../app.ts';
import { loadConfig } from '../../lib/config.ts';
import { maxConnectionsPerAddress } from '../../plugins/app/connection-limit.ts';
import { memoryKeys, type RateLimitRule, rateLimitSettings } from '../../lib/rate-limit/settings.ts';

// Tables and line breaks aside, as a reader sees the text.
const page = readFileSync(new URL('../../docs/security.md', import.meta.url), 'utf8')
  .replace(/\s*\|\s*/g, ' | ')
  .replace(/\s+/g, ' ');
const config = loadConfig({});
const limits = rateLimitSettings(config);
const minutes = (rule: RateLimitRule) => rule.windowMs / 60_000;
const number = (value: number) => value.toLocaleString('en-US');

const statements: Array<[what: string, text: string]> = [
  [
    'failures per account and address',
    `${limits.loginFailuresPerAccountAndAddress.max} failed logins per account and client address per ${minutes(limits.loginFailuresPerAccountAndAddress)} minutes`,
  ],
  [
    'failures per address',
    `${limits.loginFailuresPerAddress.max} failed logins per client address per ${minutes(limits.loginFailuresPerAddress)} minutes`,
  ],
  [
    'failures per account',
    `${limits.loginFailuresPerAccount.max} failed logins per account per ${minutes(limits.loginFailuresPerAccount)} minutes`,
  ],
  ['known addresses', `proved in the last ${limits.knownLoginAddressMs / 86_400_000} days`],
  [
    'logins a minute',
    `\`LOGIN_RATE_LIMIT_PER_MINUTE\`: ${config.loginRateLimitPerMinute} login attempts per client address a minute`,
  ],
  [
    'registrations a minute',
    `\`REGISTER_RATE_LIMIT_PER_MINUTE\`: ${config.registerRateLimitPerMinute} registrations per client address a minute`,
  ],
  [
    'reset requests',
    `Password resets: ${limits.passwordResetPerIp.max} requests per client address per ${minutes(limits.passwordResetPerIp)} minutes`,
  ],
  [
    'reset emails',
    `at most **${limits.passwordResetEmailsPerAddress.max} reset emails per email address per ${minutes(limits.passwordResetEmailsPerAddress)} minutes**`,
  ],
  [
    'link uses',
    `Emailed links: ${limits.linkUsePerIp.max} uses per client address per ${minutes(limits.linkUsePerIp)} minutes`,
  ],
  ['account emails', `${limits.accountEmailsPerUser.max} per user per ${minutes(limits.accountEmailsPerUser)} minutes`],
  ['launch-token checks', `launch-token verification: ${limits.playVerifyPerIp.max} per client address per minute`],
  ['upstream icons', `**${limits.iconUpstreamPerIp.max} a minute per client address**`],
  ['body limit', `bodies are at most ${bodyLimitBytes / 1024} KiB (then 413)`],
  ['places', `\`OVERLOAD_MAX_IN_FLIGHT\` (${config.overloadMaxInFlight})`],
  ['headers timeout', `\`HEADERS_TIMEOUT_MS\` (${config.headersTimeoutMs / 1000} s)`],
  ['request timeout', `\`REQUEST_TIMEOUT_MS\` (${config.requestTimeoutMs / 1000} s)`],
  ['connections', `One client address holds at most **${maxConnectionsPerAddress} open connections**`],
];

// The shipped nginx's numbers, read from its files.
const nginx = (file: string, name: string) => {
  const text = readFileSync(new URL(`../../deploy/nginx/${file}`, import.meta.url), 'utf8');
  const value = new RegExp(`^\\s*${name}\\s+([^;]+);`, 'm').exec(text)?.[1]?.trim();
  if (value === undefined) throw new Error(`${file} has no ${name}`);
  return value;
};
const seconds = (value: string) => value.replace(/^(\d+)s$/, '$1 s').replace(/^1h$/, '1 hour');
statements.push(
  [
    'nginx connections',
    `TCP connections, idle or not | ${nginx('stream.conf', 'limit_conn').split(/\s+/)[1]} (\`stream.conf\`)`,
  ],
  [
    'nginx requests',
    `requests being worked on | ${nginx('site.conf', 'limit_conn').split(/\s+/)[1]} (\`site.conf\` \`limit_conn\`)`,
  ],
  ['nginx headers', `sending the headers, or nothing | ${seconds(nginx('site.conf', 'client_header_timeout'))}`],
  [
    'nginx new connections',
    `each lives at most ${seconds(nginx('site.conf', 'client_header_timeout'))} without its headers`,
  ],
  [
    'nginx body size',
    `a body of up to ${nginx('site.conf', 'client_max_body_size').replace(/^(\d+)k$/, '$1 KiB')} sent`,
  ],
  [
    'nginx silence',
    `silent both ways | ${seconds(nginx('stream.conf', 'proxy_timeout'))} (\`stream.conf\` \`proxy_timeout\`)`,
  ],
  ['nginx body', `sending the body | ${seconds(nginx('site.conf', 'client_body_timeout'))} between two reads`],
  [
    'nginx keep-alive',
    `idle keep-alive connection | ${seconds(nginx('site.conf', 'keepalive_timeout'))} (\`keepalive_timeout\`), ${number(Number(nginx('site.conf', 'keepalive_requests')))} requests or ${seconds(nginx('site.conf', 'keepalive_time'))} in all`,
  ],
  ['nginx slow reader', `reading the answer | ${seconds(nginx('site.conf', 'send_timeout'))} between two writes`],
  ['nginx workers', `\`worker_connections\`, ${number(Number(nginx('nginx.conf', 'worker_connections')))} per worker`],
);

for (const [what, text] of statements) t.ok(page.includes(text), `${what}: "${text}"`);

t.ok(page.includes(`each limit counts **${number(memoryKeys)} keys** exactly`), "each limit's room in memory");
