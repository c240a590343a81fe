/**
 * The leaderboard's periods (issue 17), in Swiss days (plain YYYY-MM-DD dates; today is
 * swissToday): the ISO week (Monday to Sunday), the month, the quarter or the year that contains a
 * day (default today), or a custom range. The charts split a range into ISO weeks ('2026-W47')
 * when it spans at most a quarter, else into months ('2026-11').
 */

export const LEADERBOARD_RANGES = ['week', 'month', 'quarter', 'year', 'custom'] as const;
export type LeaderboardRange = (typeof LEADERBOARD_RANGES)[number];

export interface DayRange {
  from: string;
  until: string;
}

const DAY_MS = 86_400_000;

const toDate = (day: string): Date => new Date(`${day}T00:00:00Z`);
const toDay = (date: Date): string => date.toISOString().slice(0, 10);
const pad = (value: number) => String(value).padStart(2, '0');

/** The day `days` after (before, when negative) the given one. */
export const addDays = (day: string, days: number): string =>
  toDay(new Date(toDate(day).getTime() + days * DAY_MS));

/** Monday of the ISO week of the day. */
export function mondayOf(day: string): string {
  const weekday = (toDate(day).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/** The last day of a month (1-12). */
const lastDayOf = (year: number, month: number): string =>
  toDay(new Date(Date.UTC(year, month, 0)));

/** The week, month, quarter or year that contains the day. */
export function periodOf(range: Exclude<LeaderboardRange, 'custom'>, day: string): DayRange {
  const [year = 1970, month = 1] = day.split('-').map(Number);
  switch (range) {
    case 'week': {
      const from = mondayOf(day);
      return { from, until: addDays(from, 6) };
    }
    case 'month':
      return { from: `${year}-${pad(month)}-01`, until: lastDayOf(year, month) };
    case 'quarter': {
      const first = Math.floor((month - 1) / 3) * 3 + 1;
      return { from: `${year}-${pad(first)}-01`, until: lastDayOf(year, first + 2) };
    }
    case 'year':
      return { from: `${year}-01-01`, until: `${year}-12-31` };
  }
}

/** The ISO week of a day: '2026-W47' (the year that week's Thursday is in). */
export function isoWeek(day: string): string {
  const thursday = addDays(mondayOf(day), 3);
  const year = Number(thursday.slice(0, 4));
  const week = Math.floor((toDate(thursday).getTime() - Date.UTC(year, 0, 1)) / DAY_MS / 7) + 1;
  return `${year}-W${pad(week)}`;
}

/** The days a range spans (both ends included). */
export const daysOf = (range: DayRange): number =>
  Math.round((toDate(range.until).getTime() - toDate(range.from).getTime()) / DAY_MS) + 1;

/** How the charts split a range: ISO weeks up to a quarter's length, else months. */
export const bucketKindOf = (range: DayRange): 'week' | 'month' =>
  daysOf(range) <= 92 ? 'week' : 'month';

/** Every bucket of the range, in order (weeks or months the range touches). */
export function bucketsOf(range: DayRange, kind = bucketKindOf(range)): string[] {
  const out: string[] = [];
  if (kind === 'week') {
    for (let monday = mondayOf(range.from); monday <= range.until; monday = addDays(monday, 7))
      out.push(isoWeek(monday));
    return out;
  }
  let [year = 1970, month = 1] = range.from.split('-').map(Number);
  const last = range.until.slice(0, 7);
  for (let label = `${year}-${pad(month)}`; label <= last; label = `${year}-${pad(month)}`) {
    out.push(label);
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
  return out;
}
