/**
 * Passwords of 8 characters or more attackers try first (RockYou, the NCSC top 100k), compared
 * lower-cased; patterned families (`summer2024`) are generated below.
 */
const listed = `
password 12345678 123456789 1234567890 12345678910 123456789a 1234567890a 0123456789 0987654321
987654321 87654321 98765432 11111111 111111111 1111111111 00000000 000000000 0000000000 22222222
33333333 44444444 55555555 66666666 77777777 88888888 99999999 12121212 13131313 69696969 12341234
11223344 112233445566 12344321 123123123 123321123 1234512345 123454321 147258369 741852963 159753456
123654789 963852741 789456123 456789123 147852369 258963147 159357456 1q2w3e4r 1q2w3e4r5t 1q2w3e4r5t6y
q1w2e3r4 q1w2e3r4t5 q1w2e3r4t5y6 1qaz2wsx 1qaz2wsx3edc 1qazxsw2 zaq12wsx zaq1xsw2 !qaz2wsx 1qaz@wsx
qazwsxedc qazwsx123 qweasdzxc 123qweasd 123qweasdzxc qweasd123 12qwaszx 1qa2ws3ed qwertyuiop qwertyui
qwerty123 qwerty1234 qwerty12345 qwerty123456 qwertyu1 qwerty12 qwerty!@# qwe123qwe qwe12345 qweqweqwe
asdfghjkl asdfghjk asdfasdf asdf1234 1234asdf asd12345 asdasdasd zxcvbnm1 zxcvbnm123 zxcvbnma zxcv1234
zxc12345 123zxc123 1234qwer qwer1234 1234abcd abcd1234 abc12345 abc123456 abcdefgh abcdefg1 abcd12345
a1234567 a12345678 a123456789 aa123456 123456aa 123456abc 123abc123 1a2b3c4d a1b2c3d4 aaaaaaaa
aaaaaaaaaa zzzzzzzz xxxxxxxx 1234567a 1234567q 11111111a 00000000a q123456789 q12345678 password1
password12 password123 password1234 password12345 password! password1! password01 passw0rd p@ssw0rd
p@ssword pa$$word pa55word passwort passwort1 motdepasse contrasena contraseña password2 mypassword
yourpassword newpassword oldpassword nopassword 1password secret123 secretpassword iloveyou iloveyou1
iloveyou2 iloveyou123 iloveu123 loveyou1 loveme123 lovely123 lovelove sweetheart sunshine sunshine1
princess princess1 football football1 football123 baseball baseball1 basketball basketball1 soccer12
hockey12 superman superman1 batman123 starwars starwars1 trustno1 whatever whatever1 welcome1 welcome123
welcome12 letmein1 letmein123 letmein! monkey123 dragon123 master123 shadow12 mustang1 michelle
jennifer jessica1 michael1 charlie1 ashley123 liverpool liverpool1 chelsea1 arsenal1 manchester
manchester1 barcelona barcelona1 computer computer1 internet samsung1 samsung123 pokemon1 pokemon123
minecraft minecraft1 fortnite superstar butterfly chocolate cookie123 babygirl babygirl1 changeme
changeme1 changeme123 administrator admin123 admin1234 admin12345 adminadmin root1234 rootroot
toortoor test1234 testtest test12345 guest123 default1 access14 myspace1 linkedin facebook facebook1
google123 youtube1 twitter1 instagram hello123 hello1234 helloworld freedom1 blink182 nothing1
jordan23 michael23 kobe2424 hunter22 ranger12 buster12 tigger12 jordan12 harley12 matrix12 summer12
princesa iloveyou! 1234567890q 123456qwe 123qwe123 qwerty11 asdqwe123 zxcasdqwe qwertyuiop123
asdfghjkl123 1q2w3e4r5t6y7u 1q2w3e4r5 q1w2e3r4t5y6u7 computer123 sandiego tinkerbell rockyou1
spiderman spiderman1 snoopy12 peaches1 pepper12 cheese12 ginger12 bubbles1 anthony1 william1 jasmine1
daniel12 andrew12 joshua12 nicole12 jonathan christian christopher elizabeth alexander alexandra
victoria samantha stephanie precious1 angel123 angelina caroline charlotte danielle beautiful
beautiful1 brittany cocacola cowboys1 dolphins eagles12 yankees1 redsox12 steelers lakers24
chicago1 newyork1 america1 mercedes ferrari1 porsche1 corvette mustang123 harleydavidson
diamond1 platinum goldfish midnight darkness thunder1 lightning qwertyqwerty 1qwerty1 1q1q1q1q
123456789q 12345qwert 12345qwerty qwert12345 q1q1q1q1 a1a1a1a1 1a1a1a1a abcabcabc abc123abc
1234554321 123454321a 1122334455 0000000000a 9876543210 147147147 258258258 369369369 520520520
5201314520 woaini1314 woaini520 1314520520 thailand thailand1 bangkok1 bangkok123 sawasdee
sawasdee1 chiangmai phuket123 iloveyouthailand khonthai
`;

const seasonsAndWords = [
  'password',
  'welcome',
  'summer',
  'winter',
  'spring',
  'autumn',
  'january',
  'december',
  'admin',
  'qwerty',
];

function generated(): string[] {
  const out: string[] = [];
  for (let year = 1990; year <= 2035; year += 1) {
    for (const word of seasonsAndWords) {
      out.push(`${word}${year}`, `${word}@${year}`, `${word}${String(year).slice(2)}`);
    }
  }
  return out;
}

export const commonPasswords: ReadonlySet<string> = new Set(
  [...listed.split(/\s+/), ...generated()]
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => [...entry].length >= 8),
);

/** True for a password on the list, or one character repeated (`aaaaaaaa`, `11111111111`). */
export function isCommonPassword(password: string): boolean {
  const lowered = password.normalize('NFC').toLowerCase();
  return commonPasswords.has(lowered) || /^(.)\1+$/su.test(lowered);
}
