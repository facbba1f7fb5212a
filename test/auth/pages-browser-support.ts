/** The browser helpers moved to test/support/browser.ts (shared with the dashboard's tests). */
export * from '../support/browser';
