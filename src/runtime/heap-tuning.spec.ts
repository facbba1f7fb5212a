import { collectOnceSoon, tuneHeap } from './heap-tuning';

describe('tuneHeap', () => {
  it.each([
    ['no flags', [], '', true],
    ['other flags', ['--enable-source-maps'], '--max-old-space-size=512', true],
    ['the operator set it on the command line', ['--heap-growing-percent=80'], '', false],
    ['with underscores', ['--heap_growing_percent=80'], '', false],
    ['in NODE_OPTIONS', [], '--heap-growing-percent=50', false],
  ] as const)('%s → tuned: %s', (_name, execArgv, nodeOptions, tuned) => {
    expect(tuneHeap(execArgv, nodeOptions)).toBe(tuned);
  });
});

describe('collectOnceSoon', () => {
  it('runs one full collection after the delay, so garbage from start-up is gone', async () => {
    let big: number[] | null = new Array<number>(100_000).fill(1);
    const ref = new WeakRef(big);
    big = null;
    collectOnceSoon(10);
    await new Promise((r) => setTimeout(r, 100));
    expect(ref.deref()).toBeUndefined();
  });
});
