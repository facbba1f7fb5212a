/**
 * /status/history shows three local months a page, newest first. `before=YYYY-MM` shows the three
 * months before that month. Anything that is not such a month (or a month after the current one)
 * shows the first page: the page is for people, and a link cut short should still lead somewhere.
 * Pure.
 */
import { localDayStart, localParts, monthFirstDay, monthLabel } from './periods';

export interface Month {
  /** YYYY-MM */
  id: string;
  label: string;
  /** Epoch ms, end exclusive, in the page's zone. */
  start: number;
  end: number;
}

export interface HistoryWindow {
  months: Month[];
  /** `before` values for the links, or null when there is no such page. */
  newer: string | null;
  older: string | null;
  /** True when this is the first page (the current month leads). */
  first: boolean;
}

export const MONTHS_PER_PAGE = 3;

/** A month as a count of months since year 0 (so months add and subtract as numbers). */
const index = (y: number, mo: number) => y * 12 + mo;
const fromIndex = (i: number) => ({ y: Math.floor(i / 12), mo: i % 12 });
const id = (i: number) => {
  const { y, mo } = fromIndex(i);
  return `${String(y).padStart(4, '0')}-${String(mo + 1).padStart(2, '0')}`;
};

export function parseBefore(raw: unknown): number | null {
  if (typeof raw !== 'string') return null;
  const m = /^(\d{4})-(\d{2})$/.exec(raw);
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]) - 1;
  if (y < 1970 || mo < 0 || mo > 11) return null;
  return index(y, mo);
}

/**
 * The months of a page. `earliest` is the start of the oldest thing worth showing (the first
 * incident or the first watched service): no "older" link leads past it.
 */
export function historyWindow(rawBefore: unknown, now: number, tzMin: number, earliest: number | null): HistoryWindow {
  const { y, mo } = localParts(now, tzMin);
  const current = index(y, mo);
  const before = parseBefore(rawBefore);
  const top = before === null || before > current ? current : before - 1;
  const months: Month[] = [];
  for (let i = top; i > top - MONTHS_PER_PAGE; i--) {
    const { y: yy, mo: mm } = fromIndex(i);
    months.push({
      id: id(i),
      label: monthLabel(yy, mm),
      start: localDayStart(monthFirstDay(yy, mm), tzMin),
      end: localDayStart(monthFirstDay(yy, mm + 1), tzMin),
    });
  }
  const oldest = top - MONTHS_PER_PAGE + 1;
  const newerTop = top + MONTHS_PER_PAGE;
  return {
    months,
    first: top === current,
    newer: top === current ? null : newerTop >= current ? '' : id(newerTop + 1),
    older: earliest !== null && earliest < months[months.length - 1].start ? id(oldest) : null,
  };
}
