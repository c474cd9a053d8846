import type { SelfExclusionPeriod } from '../../contract/play.ts';

const hour = 60 * 60 * 1000;

/**
 * When a break of `period` taken at `from` ends. Hours and days are exact durations; months are
 * calendar months in UTC, clamped to the month's last day (31 August + 6 months = 28/29 February).
 */
export function selfExclusionEnd(period: SelfExclusionPeriod, from: Date): Date {
  switch (period) {
    case '24h':
      return new Date(from.getTime() + 24 * hour);
    case '7d':
      return new Date(from.getTime() + 7 * 24 * hour);
    case '30d':
      return new Date(from.getTime() + 30 * 24 * hour);
    case '6m':
      return addUtcMonths(from, 6);
  }
}

export function addUtcMonths(from: Date, months: number): Date {
  const target = new Date(from.getTime());
  const day = target.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target;
}
