import t from 'tap';
import { startBrowserTest, visitors } from '../helpers/browser.ts';

// What every page's frame owes a visitor, in Chromium on the production build: a footer with the
// rules and where to get help, a skip link that moves focus, a Log out in line with the account
// links, a home page that knows who is signed in, and an error page that leads somewhere.

const { app, base, browser } = await startBrowserTest(t);

const registered = await app.inject({
  method: 'POST',
  url: '/api/auth/register',
  payload: {
    email: `frame.${process.pid}@example.com`,
    password: 'correct horse battery staple',
    displayName: 'Frame Player',
    locale: 'en',
    acceptTerms: true,
    confirmAge: true,
  },
});
const token = /token=([^;]+)/.exec(String(registered.headers['set-cookie']))![1]!;

const { newContext, visit } = visitors(browser, base, token);

for (const javaScript of [true, false]) {
  const how = javaScript ? 'with' : 'without';
  t.test(`${how} JavaScript: the footer links the rules, help and the other language`, async (t) => {
    const context = await newContext({ width: 390, height: 844 }, { javaScript });
    const page = await context.newPage();
    for (const [path, expected] of [
      ['/asdas', ['/terms-apply', '/play-responsibility', '/play-responsibility#where-to-get-help', '/th/asdas']],
      [
        '/th/bonus',
        [
          '/th/terms-apply',
          '/th/play-responsibility',
          `/th/play-responsibility#${encodeURIComponent('ขอความช่วยเหลือได้ที่ไหน')}`,
          '/bonus',
        ],
      ],
    ] as const) {
      await visit(page, path, javaScript);
      const links = await page
        .locator('.site-footer nav a')
        .evaluateAll((anchors) =>
          anchors.map(
            (anchor) =>
              new URL((anchor as HTMLAnchorElement).href).pathname + new URL((anchor as HTMLAnchorElement).href).hash,
          ),
        );
      t.same(links, expected, `${path}: terms, responsible play, help, the other language`);
      t.match(await page.locator('.site-footer').innerText(), /1323/, `${path}: the help line`);
    }
    // The help link lands on the help section's heading.
    await page.locator('.site-footer nav a').nth(2).click();
    await page.waitForURL(/#/);
    await page.locator(`h2[id="${'ขอความช่วยเหลือได้ที่ไหน'}"]`).waitFor();
    t.pass('the help section is there');
    await context.close();
  });
}

t.test('the skip link is shown above the header, not over the brand, and moves focus to main', async (t) => {
  const context = await newContext({ width: 390, height: 844 });
  const page = await context.newPage();
  await visit(page, '/asdas', true);
  await page.keyboard.press('Tab');
  const skip = page.locator('.skip-link');
  t.equal(await page.evaluate(() => document.activeElement?.className), 'skip-link', 'the first stop is the skip link');
  const skipBox = (await skip.boundingBox())!;
  const brandBox = (await page.locator('.brand').boundingBox())!;
  t.ok(skipBox.y + skipBox.height <= brandBox.y, 'the brand is below it, not covered');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.id === 'main');
  t.pass('focus is on main');
  await page.keyboard.press('Tab');
  t.ok(
    await page.evaluate(() => document.getElementById('main')!.contains(document.activeElement)),
    'the next Tab goes into the content, not back to the header',
  );
  await context.close();
});

t.test('signed in on a phone: Log out is one more row of the menu, with its icon', async (t) => {
  const context = await newContext({ width: 390, height: 844 }, { user: true });
  const page = await context.newPage();
  await visit(page, '/', true);
  await page.locator('[data-testid="menu-toggle"]').click();
  const account = (await page.locator('.account-nav a[data-nav="account"]').boundingBox())!;
  const logout = page.locator('[data-testid="logout"]');
  const box = (await logout.boundingBox())!;
  t.ok(Math.abs(box.x - account.x) <= 1, 'starts where the account link starts');
  t.ok(Math.abs(box.width - account.width) <= 1, 'as wide as the account link');
  t.ok(box.height >= 44, `a 44 px target (${box.height})`);
  t.equal(await logout.evaluate((element) => getComputedStyle(element).borderTopWidth), '0px', 'no pill border');
  t.equal(await logout.locator('svg.icon').count(), 1, 'an icon like the other rows');
  await context.close();
});

t.test('the home page offers registration to visitors and the account to a signed-in player', async (t) => {
  for (const user of [false, true]) {
    const context = await newContext({ width: 1280, height: 800 }, { user });
    const page = await context.newPage();
    await visit(page, '/', true);
    const entries = await page
      .locator('.entry-card')
      .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-entry')));
    t.same(
      entries,
      ['bonus', 'play_responsibility', user ? 'account' : 'registration'],
      user ? 'signed in' : 'visitor',
    );
    await context.close();
  }
});

for (const javaScript of [true, false]) {
  t.test(`${javaScript ? 'with' : 'without'} JavaScript: a 404 leads home and to the sections`, async (t) => {
    const context = await newContext({ width: 390, height: 844 }, { javaScript });
    const page = await context.newPage();
    const response = await visit(page, '/th/no/such/page', javaScript);
    t.equal(response?.status(), 404);
    t.equal(await page.title(), 'ไม่พบหน้านี้ (404) · Asdas');
    t.equal(await page.locator('main h1').innerText(), 'ไม่พบหน้าที่คุณต้องการ');
    t.ok((await page.locator('[data-testid="error-sections"] a').count()) >= 6, 'the sections are links');
    await page.locator('[data-testid="error-home"]').click();
    await page.waitForURL(`${base}/th`);
    await page.locator('.home h1').waitFor();
    t.pass('the home page opens');
    await context.close();
  });
}

t.test('Thai is set for Thai: larger letters, room for its marks, no Latin tracking or capitals', async (t) => {
  const context = await newContext({ width: 390, height: 844 });
  const page = await context.newPage();
  const typeOf = async () =>
    page.evaluate(`(() => {
      const px = (value) => parseFloat(value);
      const h1 = getComputedStyle(document.querySelector('main h1'));
      const body = getComputedStyle(document.body);
      const toc = getComputedStyle(document.querySelector('.toc-title'));
      const thai = [...document.fonts].find((face) => face.family.includes('Thai'));
      return {
        h1: px(h1.lineHeight) / px(h1.fontSize),
        body: px(body.lineHeight) / px(body.fontSize),
        tocSize: px(toc.fontSize),
        tocSpacing: toc.letterSpacing,
        tocCase: toc.textTransform,
        thaiSizeAdjust: thai ? thai.sizeAdjust : null,
        wrap: getComputedStyle(document.querySelector('.prose p')).textWrap,
      };
    })()`);
  await visit(page, '/th/asdas/rtp-explained', true);
  const thai = (await typeOf()) as Record<string, number | string>;
  t.ok((thai.h1 as number) >= 1.4, `Thai headings have room above and below (${thai.h1})`);
  t.ok((thai.body as number) >= 1.75, `Thai text lines too (${thai.body})`);
  t.ok((thai.tocSize as number) >= 15, `the contents title is readable (${thai.tocSize} px)`);
  t.equal(thai.tocSpacing, 'normal', 'no letter-spacing in Thai');
  t.equal(thai.tocCase, 'none', 'no capitals in a script without case');
  t.equal(thai.thaiSizeAdjust, '110%', 'Thai letters drawn larger');
  t.match(thai.wrap, /pretty/, 'no short word alone on a last line');

  await visit(page, '/asdas/rtp-explained', true);
  const english = (await typeOf()) as Record<string, number | string>;
  t.equal(english.tocCase, 'uppercase', 'English keeps its small capitals title');
  t.ok((english.h1 as number) < 1.3, 'and its tighter headings');
  await context.close();
});

t.test(
  'the account page: who is signed in beside the sections, actions as wide as their words, deletion apart',
  async (t) => {
    for (const [viewport, columns] of [
      [{ width: 1366, height: 900 }, 2],
      [{ width: 390, height: 844 }, 1],
    ] as const) {
      const context = await newContext(viewport, { user: true });
      const page = await context.newPage();
      await visit(page, viewport.width > 1000 ? '/account' : '/th/account', true);
      const summary = (await page.locator('[data-testid="account-summary"]').boundingBox())!;
      const details = (await page.locator('#account-details').boundingBox())!;
      t.equal(details.x > summary.x + summary.width ? 2 : 1, columns, `${viewport.width} px: ${columns} column(s)`);
      t.equal(await page.locator('main').getByText('frame.', { exact: false }).count(), 1, 'the address is shown once');
      const buttons = await page
        .locator('.account-section form button[type="submit"]')
        .evaluateAll((elements) =>
          elements.map((element) => [
            element.getBoundingClientRect().width,
            element.closest('section')!.getBoundingClientRect().width,
          ]),
        );
      t.ok(buttons.length >= 5, `the forms' buttons (${buttons.length})`);
      t.ok(
        buttons.every(([button, section]) => button! < section! * 0.7),
        'no full-width button',
      );
      const danger = page.locator('.danger-zone');
      t.equal(
        await danger.evaluate((element) => getComputedStyle(element).borderTopColor),
        'rgb(163, 38, 27)',
        'deletion in a danger-coloured frame',
      );
      t.ok(
        (await danger.boundingBox())!.y > (await page.locator('#login-sessions').boundingBox())!.y,
        'last, after the other sections',
      );
      const lines = await page
        .locator('.session-times time')
        .evaluateAll((times) => times.map((time) => time.getClientRects().length));
      t.ok(lines.length >= 2 && lines.every((count) => count === 1), 'each session date on one line');
      await context.close();
    }
  },
);

t.test('with JavaScript an empty login is refused at once, without asking the server', async (t) => {
  const context = await newContext({ width: 390, height: 844 });
  const page = await context.newPage();
  await visit(page, '/th/login', true);
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(request.url());
  });
  await page.locator('form.account-form button[type="submit"]').click();
  await page.locator('.error-summary').waitFor();
  t.equal(await page.locator('[data-field-error]').count(), 2, 'email and password both marked');
  t.equal(await page.locator('input[aria-invalid="true"]').count(), 2);
  t.same(posts, [], 'no request was sent');
  await context.close();
});

t.test(
  'login and registration: the form centred with a panel beside it on a desktop, under it on a phone',
  async (t) => {
    for (const [viewport, beside] of [
      [{ width: 1366, height: 900 }, true],
      [{ width: 390, height: 844 }, false],
    ] as const) {
      const context = await newContext(viewport);
      const page = await context.newPage();
      for (const path of ['/login', '/th/registration']) {
        await visit(page, path, true);
        const form = (await page.locator('form.account-form').boundingBox())!;
        const aside = (await page.locator('[data-testid="form-aside"]').boundingBox())!;
        t.equal(
          aside.x >= form.x + form.width,
          beside,
          `${viewport.width} px ${path}: the panel ${beside ? 'beside' : 'under'} the form`,
        );
        if (beside) {
          const page_ = (await page.locator('.form-page').boundingBox())!;
          const left = page_.x;
          const right = viewport.width - (page_.x + page_.width);
          t.ok(Math.abs(left - right) <= 20, `centred (${left.toFixed(0)} | ${right.toFixed(0)})`);
        } else t.ok(aside.y >= form.y + form.height, 'under the form');
      }
      await context.close();
    }
  },
);
