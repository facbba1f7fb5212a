import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Packed, precompressLater, PRECOMPRESS_AFTER_MS } from './compression';

const TEXT = 'export const x = 1;\n'.repeat(500);

describe('Packed', () => {
  it.each(['max', 'fast'] as const)(
    'prepare() (%s) compresses both encodings off the event loop; body() then sends those bytes, decoding to the original',
    async (effort) => {
      const p = new Packed(TEXT, effort);
      await p.prepare();
      const br = p.body('br');
      const gz = p.body('gzip');
      expect(br).toBe(p.body('br'));
      expect(brotliDecompressSync(br).toString()).toBe(TEXT);
      expect(gunzipSync(gz).toString()).toBe(TEXT);
      expect(br.length).toBeLessThan(TEXT.length / 20);
      expect(p.body('identity').toString()).toBe(TEXT);
    },
  );

  it('gives the same bytes whether compressed at the first request or beforehand', async () => {
    const early = new Packed(TEXT, 'max');
    await early.prepare();
    const late = new Packed(TEXT, 'max');
    expect(late.body('br').equals(early.body('br'))).toBe(true);
    expect(gunzipSync(late.body('gzip')).toString()).toBe(TEXT);
  });
});

describe('Packed made of pieces', () => {
  const pieces = () => ['{"a":', '"é"', ',"b":[1,2]', '}'].map((t) => Buffer.from(t, 'utf8'));
  const whole = '{"a":"é","b":[1,2]}';

  it('sends the pieces themselves the first time, then one joined buffer, and counts their bytes', () => {
    const parts = pieces();
    const p = new Packed(parts);
    expect(p.length).toBe(Buffer.byteLength(whole));
    const first = p.chunks('identity');
    expect(first).toHaveLength(4);
    first.forEach((b, i) => expect(b).toBe(parts[i]));
    const second = p.chunks('identity');
    expect(second).toHaveLength(1);
    expect(second[0].toString('utf8')).toBe(whole);
    expect(p.chunks('identity')[0]).toBe(second[0]);
    expect(p.raw).toBe(second[0]);
  });

  it.each(['br', 'gzip'] as const)('compresses the joined body (%s), as one buffer', (encoding) => {
    const p = new Packed(pieces());
    const [body, ...rest] = p.chunks(encoding);
    expect(rest).toEqual([]);
    const text = (encoding === 'br' ? brotliDecompressSync(body) : gunzipSync(body)).toString('utf8');
    expect(text).toBe(whole);
    expect(p.chunks('identity')[0].toString('utf8')).toBe(whole);
  });

  it('takes one piece, a string or a buffer as the whole body', () => {
    for (const body of [[Buffer.from(whole)], whole, Buffer.from(whole)]) {
      const p = new Packed(body);
      expect(p.chunks('identity')).toHaveLength(1);
      expect(p.raw.toString('utf8')).toBe(whole);
      expect(p.length).toBe(Buffer.byteLength(whole));
    }
  });
});

describe('precompressLater', () => {
  afterEach(() => jest.useRealTimers());

  it('compresses the files after the delay, and not at all once cancelled', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] });
    const a = new Packed(TEXT, 'max');
    const prepared: Packed[] = [];
    const spy = jest.spyOn(a, 'prepare').mockImplementation(async () => {
      prepared.push(a);
    });
    precompressLater(() => [a]);
    jest.advanceTimersByTime(PRECOMPRESS_AFTER_MS - 1);
    expect(prepared).toEqual([]);
    jest.advanceTimersByTime(1);
    await Promise.resolve();
    expect(prepared).toEqual([a]);

    const b = new Packed(TEXT, 'max');
    const bSpy = jest.spyOn(b, 'prepare');
    const cancel = precompressLater(() => [b]);
    cancel();
    jest.advanceTimersByTime(PRECOMPRESS_AFTER_MS * 2);
    await Promise.resolve();
    expect(bSpy).not.toHaveBeenCalled();
    spy.mockRestore();
  });
});
