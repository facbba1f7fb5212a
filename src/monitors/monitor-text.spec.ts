/**
 * The one text rule (common/validation/text-rules.ts) on every text of a monitor body (issue 42): before,
 * `name` refused control and bidirectional characters while group, tags, description,
 * public_name's lone surrogates and public_group let them through to the dashboard and the
 * status page.
 */
import 'reflect-metadata';
import { BAD_TEXT } from '../../test/support/bad-text';
import type { MonitorDefaults } from '../settings/settings-defaults';
import { parseMonitorBody } from './monitor-input';

const DEFAULTS: MonitorDefaults = {
  interval_s: 60,
  timeout_ms: 10000,
  confirm_after: 2,
  retry_interval_s: 10,
  recover_after: 1,
  slow_after: 3,
};
const BASE = { name: 'DB', kind: 'tcp', tcp: { host: 'db.lan', port: 5432 } };

/** Each text field: how a text goes into the body, and whether it may span lines. */
const FIELDS: [string, (text: string) => Record<string, unknown>, boolean][] = [
  ['name', (text) => ({ name: text }), false],
  ['group', (text) => ({ group: text }), false],
  ['tags', (text) => ({ tags: ['ok', text] }), false],
  ['description', (text) => ({ description: text }), true],
  ['public_name', (text) => ({ public_name: text }), false],
  ['public_group', (text) => ({ public_group: text }), false],
];

const parse = (over: Record<string, unknown>) => parseMonitorBody({ ...BASE, ...over }, DEFAULTS, null);

describe('every text field of a monitor follows the one text rule', () => {
  it.each(FIELDS.flatMap(([field, put]) => BAD_TEXT.map(([what, text]) => [field, what, put(text)] as const)))(
    '%s refuses %s',
    (field, _what, over) => {
      const r = parse(over);
      expect(r.ok).toBe(false);
      if (!r.ok)
        expect(r.errors).toEqual([{ field, message: expect.stringMatching(/control characters|lone surrogate/) }]);
    },
  );

  it.each(
    FIELDS.filter(([, , lines]) => !lines).flatMap(([field, put]) =>
      [
        ['a line feed', 'a\nb'],
        ['a tab', 'a\tb'],
      ].map(([what, text]) => [field, what, put(text)] as const),
    ),
  )('%s (one line) refuses %s', (field, _what, over) => {
    const r = parse(over);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors).toEqual([{ field, message: expect.stringContaining('line breaks, tabs') }]);
  });

  it('keeps line breaks and tabs in a description', () => {
    const r = parse({ description: 'Runs nightly.\r\n\tAsk Sam first.\nThen the NAS.' });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.config.description).toBe('Runs nightly.\r\n\tAsk Sam first.\nThen the NAS.');
  });

  it.each(FIELDS.map(([field, put]) => [field, put('Café – 東京 👨‍👩‍👧')] as const))(
    '%s takes any other text',
    (_field, over) => {
      expect(parse(over).ok).toBe(true);
    },
  );
});
