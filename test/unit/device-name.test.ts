import t from 'tap';
import { deviceName } from '../../lib/device-name.ts';

const android =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const iphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const windowsFirefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const edge =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0';
const macSafari =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';

t.test('common browsers in words, English by default', async (t) => {
  t.equal(deviceName(android), 'Chrome on Android');
  t.equal(deviceName(iphone, 'en'), 'Safari on iOS');
  t.equal(deviceName(windowsFirefox, 'en'), 'Firefox on Windows');
  t.equal(deviceName(edge, 'en'), 'Microsoft Edge on Windows');
  t.equal(deviceName(macSafari, 'en'), 'Safari on macOS');
});

t.test('Thai joins the same names with Thai words', async (t) => {
  t.equal(deviceName(android, 'th'), 'Chrome บน Android');
  t.equal(deviceName(null, 'th'), 'อุปกรณ์ที่ไม่รู้จัก');
});

t.test('missing, empty or unrecognisable agents never throw', async (t) => {
  t.equal(deviceName(null), 'Unknown device');
  t.equal(deviceName(undefined), 'Unknown device');
  t.equal(deviceName('   '), 'Unknown device');
  t.equal(deviceName('curl/8.5.0'), 'Unknown device');
  t.equal(deviceName('x'.repeat(512)), 'Unknown device');
  t.equal(deviceName('okhttp/4.12.0'), 'Unknown device');
});
