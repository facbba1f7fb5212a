import { BAD_TEXT } from '../../test/support/bad-text';
import { ApiError } from '../common/http/api-error';
import { applyIncidentPatch, incidentFilter, NOTE_IN_LINE, NOTE_MAX, parseIncidentPatch } from './incident-input';

const fieldOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    return (e as ApiError).field;
  }
  return undefined;
};

describe('incidentFilter', () => {
  it.each([
    [{}, { state: 'all', monitorId: null }],
    [{ state: 'open' }, { state: 'open', monitorId: null }],
    [
      { state: 'closed', monitor_id: '7' },
      { state: 'closed', monitorId: 7 },
    ],
    [{ state: '' }, { state: 'all', monitorId: null }],
  ])('reads %j', (q, want) => expect(incidentFilter(q)).toEqual(want));

  it.each([
    [{ state: 'Open' }, 'state'],
    [{ state: ['open', 'closed'] }, 'state'],
    [{ monitor_id: '0' }, 'monitor_id'],
    [{ monitor_id: '1.5' }, 'monitor_id'],
    [{ monitor_id: 'slug:web' }, 'monitor_id'],
  ])('refuses %j on %s', (q, field) => expect(fieldOf(() => incidentFilter(q))).toBe(field));
});

describe('parseIncidentPatch', () => {
  it.each([
    [{}, {}],
    [{ acknowledged: true }, { acknowledged: true }],
    [
      { acknowledged: false, note: null },
      { acknowledged: false, note: null },
    ],
    [{ note: '  ' }, { note: null }],
    [{ note: 'a\nb\tc' }, { note: 'a\nb\tc' }],
    [{ note: '😀'.repeat(NOTE_MAX) }, { note: '😀'.repeat(NOTE_MAX) }],
  ])('takes %j', (body, want) => expect(parseIncidentPatch(body)).toEqual(want));

  it.each([
    [null, 'body'],
    ['ack', 'body'],
    [[], 'body'],
    [{ acknowledged: 'true' }, 'acknowledged'],
    [{ acknowledged: null }, 'acknowledged'],
    [{ note: 1 }, 'note'],
    [{ note: 'x'.repeat(NOTE_MAX + 1) }, 'note'],
    [{ note: 'nul\u0000' }, 'note'],
    [{ id: 4 }, 'id'],
  ])('refuses %j on %s', (body, field) => expect(fieldOf(() => parseIncidentPatch(body))).toBe(field));

  // The one text rule of common/validation/text-rules.ts, multi-line (issue 42): before, only C0 controls and DEL were refused.
  it.each(BAD_TEXT)('refuses a note with %s', (_what, note) =>
    expect(fieldOf(() => parseIncidentPatch({ note }))).toBe('note'),
  );
});

describe('applyIncidentPatch', () => {
  const fresh = { acknowledged_at: null, note: null };
  const acked = { acknowledged_at: 1000, note: 'x' };
  it.each([
    [fresh, { acknowledged: true }, 5000, null, 'ack', 'owner acknowledged'],
    [
      acked,
      { acknowledged: true },
      1000,
      'x',
      'ack',
      'owner acknowledged again (first acknowledged 1970-01-01T00:00:01.000Z, kept)',
    ],
    [acked, { acknowledged: false }, null, 'x', 'ack', 'owner withdrew the acknowledgement'],
    [fresh, { note: 'n' }, null, 'n', 'note', 'owner added a note: “n”'],
    [acked, { note: 'y' }, 1000, 'y', 'note', 'owner changed the note to: “y”'],
    [acked, { note: null }, 1000, null, 'note', 'owner cleared the note'],
    [acked, { note: 'x' }, 1000, 'x', 'note', 'owner left the note unchanged'],
    [fresh, { acknowledged: true, note: 'n' }, 5000, 'n', 'ack', 'owner acknowledged and added a note: “n”'],
    [
      fresh,
      { note: 'Router\r\nrebooted,\tISP says fibre cut' },
      null,
      'Router\r\nrebooted,\tISP says fibre cut',
      'note',
      'owner added a note: “Router rebooted, ISP says fibre cut”',
    ],
  ] as const)('%j + %j', (row, patch, ackAt, note, kind, text) => {
    const out = applyIncidentPatch(row, patch, 'owner', 5000);
    expect(out).toMatchObject({ acknowledged_at: ackAt, note, line: { kind, text } });
  });

  it('quotes a long note in its line up to NOTE_IN_LINE characters, cut with an ellipsis', () => {
    const text = applyIncidentPatch(fresh, { note: 'x'.repeat(5000) }, 'owner', 5000).line?.text ?? '';
    expect(text).toBe(`owner added a note: “${'x'.repeat(NOTE_IN_LINE - 1)}…”`);
  });

  it('writes no line for an empty PATCH', () => expect(applyIncidentPatch(acked, {}, 'owner', 5000).line).toBeNull());
});
