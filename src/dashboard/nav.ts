/**
 * The dashboard's navigation: every page of the shell, in order, and the view model the layout
 * draws (the current page marked). A page is listed only once it is complete (`ready`), so the
 * navigation never leads to a half-built page. Pure.
 */

export type PageKey =
  | 'overview'
  | 'incidents'
  | 'maintenance'
  | 'locations'
  | 'channels'
  | 'status-page'
  | 'settings'
  | 'security'
  | 'keys'
  | 'timeline'
  | 'diagnostics'
  | 'account';

interface NavEntry {
  key: PageKey;
  href: string;
  label: string;
  /** Shown in the navigation. */
  ready: boolean;
}

export const NAV: readonly NavEntry[] = [
  { key: 'overview', href: '/', label: 'Overview', ready: true },
  { key: 'incidents', href: '/incidents', label: 'Incidents', ready: true },
  { key: 'maintenance', href: '/maintenance', label: 'Maintenance', ready: true },
  { key: 'locations', href: '/locations', label: 'Locations', ready: true },
  { key: 'channels', href: '/channels', label: 'Channels', ready: true },
  { key: 'status-page', href: '/status-page', label: 'Status page', ready: true },
  { key: 'settings', href: '/settings', label: 'Settings', ready: true },
  { key: 'security', href: '/security', label: 'Security', ready: true },
  { key: 'keys', href: '/keys', label: 'API keys', ready: true },
  { key: 'timeline', href: '/timeline', label: 'Timeline', ready: true },
  { key: 'diagnostics', href: '/diagnostics', label: 'Diagnostics', ready: true },
];

export interface NavItem {
  href: string;
  label: string;
  current: boolean;
}

export function navFor(current: PageKey): NavItem[] {
  return NAV.filter((e) => e.ready).map((e) => ({ href: e.href, label: e.label, current: e.key === current }));
}

export type Theme = 'auto' | 'light' | 'dark';

/** The theme the owner picked (a cookie the page script writes); anything else follows the system. */
export function themeOf(cookie: string | null): Theme {
  return cookie === 'light' || cookie === 'dark' ? cookie : 'auto';
}

const THEME_WORDS: Record<Theme, string> = { auto: 'Follow the system', light: 'Light', dark: 'Dark' };

/** The theme picker's options, the current one selected. */
export function themeChoices(current: Theme): { value: Theme; label: string; selected: boolean }[] {
  return (Object.keys(THEME_WORDS) as Theme[]).map((value) => ({
    value,
    label: THEME_WORDS[value],
    selected: value === current,
  }));
}
