import { collectOnceSoon, tuneHeap } from './heap-tuning';

describe('tuneHeap', () => {
  const growing = '--heap-growing-percent=30';
  const pretenuring = '--no-allocation-site-pretenuring';
  it.each([
    ['no flags', [], '', [growing, pretenuring]],
    ['other flags', ['--enable-source-maps'], '--max-old-space-size=512', [growing, pretenuring]],
    ['the operator set the factor on the command line', ['--heap-growing-percent=80'], '', [pretenuring]],
    ['with underscores', ['--heap_growing_percent=80'], '', [pretenuring]],
    ['the factor in NODE_OPTIONS', [], '--heap-growing-percent=50', [pretenuring]],
    ['pretenuring asked for', ['--allocation-site-pretenuring'], '', [growing]],
    ['pretenuring refused in NODE_OPTIONS', [], '--no-allocation_site_pretenuring', [growing]],
    ['both set', ['--heap-growing-percent=80'], '--allocation-site-pretenuring', []],
  ] as const)('%s → sets %j', (_name, execArgv, nodeOptions, set) => {
    expect(tuneHeap(execArgv, nodeOptions)).toEqual(set);
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
