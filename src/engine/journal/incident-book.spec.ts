import { IncidentBook } from './incident-book';

const down = (at: number, fails = 3) => ({
  at,
  error: { code: 'timeout', message: 'timed out' },
  fails,
  failingSince: at - 20_000,
});

describe('IncidentBook', () => {
  it('hands out ids after the highest ever stored, and restores open incidents', () => {
    const book = new IncidentBook();
    const stored = { ...new IncidentBook().start(9, 'old', down(1000)), id: 41 };
    book.restore([stored], 57);
    expect(book.openOf(9)?.id).toBe(41);
    expect(book.start(3, 'new', down(2000)).id).toBe(58);
    expect(book.byId(41)).toEqual({ row: stored, written: true });
  });

  it('opens from the first failure, counts failures, keeps the cause and moves the latest error', () => {
    const book = new IncidentBook();
    const row = book.start(1, 'web', down(100_000));
    expect(row).toMatchObject({
      started_at: 80_000,
      down_at: 100_000,
      fails: 3,
      cause_code: 'timeout',
      last_error_code: 'timeout',
      ended_at: null,
    });
    book.failed(1, 4, { code: 'refused', message: 'refused' });
    book.failed(1, 5, { code: null, message: null }); // a good check while down: the latest error stays
    expect(book.openOf(1)).toMatchObject({ fails: 5, cause_code: 'timeout', last_error_code: 'refused' });
  });

  it('writes the newest version only, and keeps what changed while a write ran', () => {
    const book = new IncidentBook();
    book.start(1, 'web', down(100_000));
    expect(book.byId(1)?.written).toBe(false);
    expect(book.unwrittenRows().map((r) => r.id)).toEqual([1]);
    const w = book.writes();
    expect(w.attach).toEqual([{ id: 1, monitorId: 1, since: 80_000, until: 100_000 }]);
    book.failed(1, 4, { code: 'timeout', message: 'timed out' }); // while the write runs
    book.written(w);
    expect(book.byId(1)?.written).toBe(true);
    expect(book.unwrittenRows()).toEqual([]);
    expect(book.hasWork()).toBe(true);
    const w2 = book.writes();
    expect(w2.rows.map((r) => r.fails)).toEqual([4]);
    expect(w2.attach).toEqual([]);
    book.written(w2);
    expect(book.hasWork()).toBe(false);
  });

  it('ends with a reason, never before it started; a second end finds nothing', () => {
    const book = new IncidentBook();
    book.start(1, 'web', down(100_000));
    const ended = book.end(1, 50_000, 'paused');
    expect(ended).toMatchObject({ ended_at: 80_000, end_reason: 'paused' });
    expect(book.openOf(1)).toBeUndefined();
    expect(book.byId(ended!.id)?.row.end_reason).toBe('paused');
    expect(book.end(1, 60_000, 'recovered')).toBeUndefined();
  });

  it('forgets a deleted monitor: nothing of it is written afterwards', () => {
    const book = new IncidentBook();
    book.start(1, 'web', down(100_000));
    book.start(2, 'db', down(100_000));
    book.forget(1);
    const w = book.writes();
    expect(w.rows.map((r) => r.monitor_id)).toEqual([2]);
    expect(w.attach.map((a) => a.monitorId)).toEqual([2]);
  });

  it('keeps PATCHed fields on the open row and on a version waiting to be written', () => {
    const book = new IncidentBook();
    const row = book.start(1, 'web', down(100_000));
    book.patched(row.id, { acknowledged_at: 5, note: 'n' });
    expect(book.openOf(1)).toMatchObject({ acknowledged_at: 5, note: 'n' });
    expect(book.writes().rows[0]).toMatchObject({ acknowledged_at: 5, note: 'n' });
    book.rename(1, 'site');
    expect(book.openOf(1)?.monitor_name).toBe('site');
  });
});
