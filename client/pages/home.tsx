import { useTranslation } from '../i18n.ts';
import { localePath } from '../../contract/locales.ts';
import { AppLink } from '../components/app-link.tsx';
import { ArticleCardList, FallbackNote, Prose } from '../components/content-parts.tsx';
import { PlayCallToAction } from '../components/play-button.tsx';
import { useLocale, usePageData, useUser } from '../hooks.ts';
import { VisitorPart } from '../components/visitor-part.tsx';
import type { loader } from './home.server.ts';

/** Where a first visit usually goes next; a signed-in player's third card is their account. */
const entryPoints = [
  { key: 'bonus', path: '/bonus', title: 'nav.bonus' },
  { key: 'play_responsibility', path: '/play-responsibility', title: 'nav.play_responsibility' },
] as const;
const newcomerEntry = { key: 'registration', path: '/registration', title: 'nav.registration' } as const;
const playerEntry = { key: 'account', path: '/account', title: 'accountPage.link' } as const;

type Entry = (typeof entryPoints)[number] | typeof newcomerEntry | typeof playerEntry;

function EntryCard({ entry }: { entry: Entry }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <li>
      <AppLink to={localePath(locale, entry.path)} className={`entry-card entry-${entry.key}`} data-entry={entry.key}>
        <span className="entry-title">{t(entry.title)}</span>
        <span className="entry-text">{t(`home.entry.${entry.key}`)}</span>
        <span className="entry-cta" aria-hidden="true">
          {t(`home.entryCta.${entry.key}`)} →
        </span>
      </AppLink>
    </li>
  );
}

/** The third card: registration for a newcomer, the account for a signed-in player (a visitor part). */
export function AccountEntry() {
  return <EntryCard entry={useUser() ? playerEntry : newcomerEntry} />;
}

export default function HomePage() {
  const data = usePageData<typeof loader>();
  const { t } = useTranslation();
  const locale = useLocale();
  const { intro } = data;
  const lang = intro.fallback ? 'en' : undefined;
  return (
    <div className="page home">
      <section className="hero">
        <div lang={lang}>
          <h1>{intro.title}</h1>
          <p className="lede">{intro.description}</p>
        </div>
        {intro.fallback ? <FallbackNote /> : null}
      </section>

      <section className="entry-points" aria-labelledby="entry-points-title">
        <h2 id="entry-points-title" className="section-title">
          {t('home.startHeading')}
        </h2>
        <ul className="entry-grid">
          {entryPoints.map((entry) => (
            <EntryCard key={entry.key} entry={entry} />
          ))}
          <VisitorPart name="home-account-entry" part={AccountEntry} />
        </ul>
      </section>

      <Prose html={intro.html} lang={lang} className="prose home-intro" />

      <section className="latest" aria-labelledby="latest-title">
        <div className="section-head">
          <h2 id="latest-title" className="section-title">
            {t('home.latestHeading')}
          </h2>
          <AppLink to={localePath(locale, '/asdas')} className="section-more">
            {t('home.allArticles')} →
          </AppLink>
        </div>
        <ArticleCardList articles={data.latestArticles} heading="h3" />
      </section>

      <PlayCallToAction />
    </div>
  );
}
