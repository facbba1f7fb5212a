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
