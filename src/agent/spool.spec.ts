import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Spool } from './spool';

const NOW = Date.UTC(2026, 10, 28, 22, 0, 0);
const BOUNDS = { maxResults: 100, maxBytes: 1_000_000 };

/** Items whose stored line is the JSON the spool reads back: seq, monitor_id and some padding. */
const items = (n: number, monitorId = 1, pad = '') =>
  Array.from({ length: n }, () => ({
    monitorId,
    body: (seq: number) => JSON.stringify({ seq, monitor_id: monitorId, pad }),
  }));

describe('Spool', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spool-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('numbers results from the clock in microseconds, in order, and keeps them pending until acknowledged', async () => {
    const spool = Spool.open(dir, BOUNDS, NOW);
    const { added } = await spool.append(items(3));
    expect(added.map((e) => e.seq)).toEqual([NOW * 1000, NOW * 1000 + 1, NOW * 1000 + 2]);
    await spool.ack(NOW * 1000 + 1);
    expect(spool.pending().map((e) => e.seq)).toEqual([NOW * 1000 + 2]);
    expect(spool.ackedSeq).toBe(NOW * 1000 + 1);
  });

  it('reads back after a restart: acknowledged results are gone, the others pending in order with their seq', async () => {
    const first = Spool.open(dir, BOUNDS, NOW);
    const { added } = await first.append(items(5));
    await first.ack(added[1].seq);
    // A later start, with the clock set back an hour: seq still goes on from the spool.
    const again = Spool.open(dir, BOUNDS, NOW - 3_600_000);
    expect(again.pending().map((e) => e.seq)).toEqual(added.slice(2).map((e) => e.seq));
    expect(again.pending()[0].line).toBe(added[2].line);
    const more = await again.append(items(1));
    expect(more.added[0].seq).toBe(added[4].seq + 1);
  });

  it('cuts a line torn by a crash and goes on after the last whole one', async () => {
    const first = Spool.open(dir, BOUNDS, NOW);
    const { added } = await first.append(items(2));
    const [seg] = fs.readdirSync(dir).filter((f) => f.startsWith('seg-'));
    fs.appendFileSync(path.join(dir, seg), '{"seq":99999999,"monitor_');
    const again = Spool.open(dir, BOUNDS, NOW);
    expect(again.pending().map((e) => e.seq)).toEqual(added.map((e) => e.seq));
    await again.append(items(1));
    const lines = fs.readFileSync(path.join(dir, seg), 'utf8').trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { seq: number }).seq)).toEqual([
      added[0].seq,
      added[1].seq,
      added[1].seq + 1,
    ]);
  });

  it('deletes segments once everything in them is acknowledged', async () => {
    const spool = Spool.open(dir, { maxResults: 20, maxBytes: 1_000_000 }, NOW);
    const { added } = await spool.append(items(10));
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('seg-'))).toHaveLength(10);
    await spool.ack(added[6].seq);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('seg-'))).toHaveLength(3);
    expect(spool.diskUsage().results).toBe(3);
  });

  it('keeps appending to its newest segment while it has room, even when all of it is acknowledged', async () => {
    const segs = () => fs.readdirSync(dir).filter((f) => f.startsWith('seg-'));
    // A twentieth of 100: five results a segment.
    const spool = Spool.open(dir, BOUNDS, NOW);
    const first = await spool.append(items(2));
    await spool.ack(first.added[1].seq);
    expect(segs()).toHaveLength(1);
    const second = await spool.append(items(2));
    await spool.ack(second.added[1].seq);
    // Still the one file: no create and delete per POST.
    expect(segs()).toEqual([`seg-${String(first.added[0].seq).padStart(16, '0')}.jsonl`]);
    // The fifth result fills it, the sixth starts the next: the full one goes once acknowledged.
    const third = await spool.append(items(2));
    expect(segs()).toHaveLength(2);
    await spool.ack(third.added[1].seq);
    expect(segs()).toEqual([`seg-${String(third.added[1].seq).padStart(16, '0')}.jsonl`]);
    expect(spool.pending()).toEqual([]);
    // A later start sends none of what was acknowledged.
    expect(Spool.open(dir, BOUNDS, NOW).pending()).toEqual([]);
  });

  it.each([
    ['results', { maxResults: 40, maxBytes: 1_000_000 }, ''],
    ['bytes', { maxResults: 100_000, maxBytes: 100_000 }, 'x'.repeat(1_000)],
  ])('keeps its bound in %s: the oldest are dropped and counted', async (_what, bounds, pad) => {
    const spool = Spool.open(dir, bounds, NOW);
    let last = 0;
    for (let i = 0; i < 30; i += 1) {
      const { added } = await spool.append(items(7, 1, pad));
      last = added[added.length - 1].seq;
      const usage = spool.diskUsage();
      const onDisk = fs
        .readdirSync(dir)
        .filter((f) => f.startsWith('seg-'))
        .reduce((n, f) => n + fs.statSync(path.join(dir, f)).size, 0);
      expect(usage.results).toBeLessThanOrEqual(bounds.maxResults);
      expect(onDisk).toBe(usage.bytes);
      expect(onDisk).toBeLessThanOrEqual(bounds.maxBytes);
    }
    const pending = spool.pending();
    // The newest are kept, in order, without a gap; what is missing is exactly the count dropped.
    expect(pending[pending.length - 1].seq).toBe(last);
    expect(pending.map((e, i) => e.seq - i)).toEqual(pending.map(() => pending[0].seq));
    expect(spool.dropped).toBe(210 - pending.length);
    expect(spool.dropped).toBeGreaterThan(0);
    // A restart sees the same bounded spool.
    expect(
      Spool.open(dir, bounds, NOW)
        .pending()
        .map((e) => e.seq),
    ).toEqual(pending.map((e) => e.seq));
  });

  it('records each acknowledgement in place, at one width, and a later start reads it back', async () => {
    const spool = Spool.open(dir, BOUNDS, NOW);
    const { added } = await spool.append(items(3));
    await spool.ack(added[0].seq);
    await spool.ack(added[1].seq);
    // No temporary file, no rename: the same 17 bytes rewritten (the seq in 16 digits and a newline).
    expect(fs.readdirSync(dir).filter((f) => !f.startsWith('seg-'))).toEqual(['acked']);
    expect(fs.readFileSync(path.join(dir, 'acked'), 'utf8')).toBe(`${String(added[1].seq).padStart(16, '0')}\n`);
    // Read back without a close (as after kill -9), and after one.
    expect(
      Spool.open(dir, BOUNDS, NOW)
        .pending()
        .map((e) => e.seq),
    ).toEqual([added[2].seq]);
    await spool.close();
    expect(Spool.open(dir, BOUNDS, NOW).ackedSeq).toBe(added[1].seq);
  });

  it('reads an acknowledgement an older version wrote (no padding)', async () => {
    const spool = Spool.open(dir, BOUNDS, NOW);
    const { added } = await spool.append(items(2));
    fs.writeFileSync(path.join(dir, 'acked'), `${added[0].seq}\n`);
    const again = Spool.open(dir, BOUNDS, NOW);
    expect(again.pending().map((e) => e.seq)).toEqual([added[1].seq]);
    await again.ack(added[1].seq);
    expect(Spool.open(dir, BOUNDS, NOW).pending()).toEqual([]);
  });

  it('keeps appending to the segment it holds open, and opens the next one when it is full', async () => {
    const spool = Spool.open(dir, { maxResults: 40, maxBytes: 1_000_000 }, NOW);
    for (let i = 0; i < 3; i += 1) await spool.append(items(1));
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('seg-'))).toHaveLength(2);
    await spool.close();
    const lines = fs
      .readdirSync(dir)
      .filter((f) => f.startsWith('seg-'))
      .sort()
      .map((f) => fs.readFileSync(path.join(dir, f), 'utf8').trim().split('\n').length);
    expect(lines).toEqual([2, 1]);
  });

  it('goes above an acknowledgement higher than anything it made (a spool deleted by hand)', async () => {
    const spool = Spool.open(dir, BOUNDS, NOW);
    await spool.ack(NOW * 1000 + 500);
    const { added } = await spool.append(items(1));
    expect(added[0].seq).toBe(NOW * 1000 + 501);
  });

  it('writes its files for its user only', async () => {
    const spool = Spool.open(path.join(dir, 'inner'), BOUNDS, NOW);
    const { added } = await spool.append(items(1));
    await spool.ack(added[0].seq - 1);
    await spool.ack(added[0].seq);
    await spool.append(items(1));
    expect(fs.statSync(path.join(dir, 'inner')).mode & 0o777).toBe(0o700);
    for (const f of fs.readdirSync(path.join(dir, 'inner')))
      expect(fs.statSync(path.join(dir, 'inner', f)).mode & 0o077).toBe(0);
  });
});
