/**
 * What a browser meets when the site refuses what it sent (issue 50): a form posted from another
 * site, too large or of another type is the page again, in its language, with a translated
 * message on its form; an address the site cannot read (a bad escape, a control character, a
 * segment over 500 characters, `?page=abc`) is the framed error screen in the address's language,
 * its detail line translated. A client asking for JSON keeps getting the API's error shape.
 */
import t, { type Test } from 'tap';
import { browserUserAgent, startTestApp } from '../helpers/app.ts';

const { app, close } = await startTestApp({ PUBLIC_URL: 'http://localhost:3000' });
t.teardown(close);

const html = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const get = (url: string, accept = html) => app.inject({ url, headers: { accept, 'user-agent': browserUserAgent } });
const post = (url: string, headers: Record<string, string>, payload: string | Buffer) =>
  app.inject({
    method: 'POST',
    url,
    headers: {
      accept: html,
      'user-agent': browserUserAgent,
      host: 'localhost:3000',
      origin: 'http://localhost:3000',
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    },
    payload,
  });

/** The page's own frame: its header, its language, its form. */
function framedPage(t: Test, body: string, lang: 'en' | 'th') {
  t.match(body, new RegExp(`<html lang="${lang}"`), `in ${lang}`);
  t.match(body, /class="site-header"/, 'in the site frame');
}

t.test('the first request a replica meets may be such an address: a page all the same', async (t) => {
  const first = await get('/th/%ff');
  t.equal(first.statusCode, 400);
  t.match(first.headers['content-type'], /text\/html/);
  framedPage(t, first.body, 'th');
});

t.test('a form from another site: the page again, with why, and nothing it sent', async (t) => {
  const response = await post(
    '/th/registration',
    { origin: 'https://evil.example' },
    'email=victim%40example.com&displayName=Evil',
  );
  t.equal(response.statusCode, 403);
  t.match(response.headers['content-type'], /text\/html/);
  framedPage(t, response.body, 'th');
  t.match(response.body, /แบบฟอร์มนี้ถูกส่งมาจากเว็บไซต์อื่น/, 'the Thai message');
  t.match(response.body, /<form[^>]*action="\/th\/registration"/, 'the form');
  t.notMatch(response.body, /victim@example\.com|Evil/, 'none of what the other site put in it');
  const json = await post(
    '/th/registration',
    { origin: 'https://evil.example', accept: 'application/json' },
    'email=x',
  );
  t.same(json.json(), {
    statusCode: 403,
    code: 'CROSS_ORIGIN_FORM',
    message: 'Forms may only be posted from this site.',
  });
});

t.test('a form too large or of another type: the page again, with why', async (t) => {
  const large = await post('/th/registration', {}, `email=a%40b.c&displayName=${'x'.repeat(1024 * 1024)}`);
  t.equal(large.statusCode, 413);
  framedPage(t, large.body, 'th');
  t.match(large.body, /ข้อมูลที่ส่งมามีขนาดใหญ่เกินกว่าที่แบบฟอร์มนี้รับได้/);
  const multipart = await post(
    '/login',
    { 'content-type': 'multipart/form-data; boundary=x' },
    '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.c\r\n--x--\r\n',
  );
  t.equal(multipart.statusCode, 415);
  framedPage(t, multipart.body, 'en');
  t.match(multipart.body, /This form arrived in a format it cannot be read in/);
  const asJson = await post(
    '/login',
    { 'content-type': 'multipart/form-data; boundary=x', accept: 'application/json' },
    '--x--',
  );
  t.match(asJson.json(), { statusCode: 415, code: 'UNSUPPORTED_MEDIA_TYPE' }, 'JSON for a client asking for it');
});

t.test('an address the site cannot read: the framed error in its language, translated', async (t) => {
  for (const [url, status, lang, detail] of [
    ['/asdas/%E0%A4', 400, 'en', /This address holds characters that no page address can hold/],
    ['/th/%ff', 400, 'th', /ที่อยู่นี้มีอักขระที่ที่อยู่ของหน้าเว็บไม่สามารถมีได้/],
    ['/th/x%0Ay', 400, 'th', /ที่อยู่นี้มีอักขระ/],
    [`/th/${'a'.repeat(600)}`, 414, 'th', /บางส่วนของที่อยู่นี้ยาวเกิน 500 ตัวอักษร/],
    ['/th/asdas?page=abc', 400, 'th', /“abc” ไม่ใช่หมายเลขหน้าของรายการนี้/],
  ] as const) {
    const response = await get(url);
    t.equal(response.statusCode, status, url);
    t.match(response.headers['content-type'], /text\/html/, `${url}: a page`);
    framedPage(t, response.body, lang);
    t.match(response.body, detail, `${url}: the detail line in ${lang}`);
    t.ok(response.headers['content-security-policy'], `${url}: with the security headers`);
    const visible = response.body.replace(/<script[\s\S]*?<\/script>/g, '');
    t.notMatch(visible, /Invalid page number|cannot be read:/, `${url}: no English developer text on it`);
  }
  const refused = await get('/th/%ff');
  t.match(refused.body, /"static":true/, 'a refused address is not hydrated');
  t.notMatch(refused.body, /"router":/);
  t.match(
    (await get('/th/%ff', 'application/json')).json(),
    { statusCode: 400, code: 'MALFORMED_PATH' },
    'JSON asked: JSON',
  );
  t.match((await get('/api/x%0A', html)).json(), { statusCode: 400, code: 'MALFORMED_PATH' }, 'the API: JSON always');
});
