import type { Locale } from '../../contract/locales.ts';

/** Titles and descriptions of the pages the content pipeline generates (not written in Markdown). */
export interface GeneratedLabels {
  home: string;
  articles: string;
  articlesDescription: string;
  authors: string;
  authorsDescription: string;
  siteToc: string;
  siteTocDescription: string;
  sections: string;
  authorDescription: (name: string, role: string) => string;
}

export const labels: Record<Locale, GeneratedLabels> = {
  en: {
    home: 'Home',
    articles: 'Articles',
    articlesDescription: 'Guides and news: how games, odds and bonuses work, and how to stay in control of your play.',
    authors: 'Authors',
    authorsDescription: 'The people who write and review the guides on this site.',
    siteToc: 'Table of Content',
    siteTocDescription: 'Every page, article and author on this site in one place.',
    sections: 'Pages',
    authorDescription: (name, role) => `${name}, ${role}: biography and articles.`,
  },
  th: {
    home: 'หน้าแรก',
    articles: 'บทความ',
    articlesDescription: 'คู่มือและข่าวสาร: เกม อัตราต่อรอง และโบนัสทำงานอย่างไร และวิธีควบคุมการเล่นของคุณ',
    authors: 'ผู้เขียน',
    authorsDescription: 'ทีมงานที่เขียนและตรวจทานคู่มือบนเว็บไซต์นี้',
    siteToc: 'สารบัญ',
    siteTocDescription: 'รวมทุกหน้า บทความ และผู้เขียนของเว็บไซต์นี้ไว้ในที่เดียว',
    sections: 'หน้าหลัก',
    authorDescription: (name, role) => `${name} ${role}: ประวัติและบทความ`,
  },
};
