import { Options, parseArgs } from './args';

describe('Options.toArgs', () => {
  it.each<[string[], string[], string[]]>([
    [
      ['all', '--monitors', '200', '--smoke'],
      ['monitors', 'smoke'],
      ['--monitors=200', '--smoke'],
    ],
    [['all', '--monitors=10', '--concurrency', '4'], ['monitors'], ['--monitors=10']],
    [
      ['all', '--node-args=--trace-gc --max-semi-space-size=2'],
      ['node-args'],
      ['--node-args=--trace-gc --max-semi-space-size=2'],
    ],
    [['all', '--keep', 'true'], ['keep'], ['--keep=true']],
    [['all'], ['monitors'], []],
  ])('%j keeping %j gives %j, which parses back to the same options', (argv, keep, args) => {
    const given = parseArgs(argv).options;
    expect(new Options(given).toArgs(keep)).toEqual(args);
    const kept = [...given].filter(([k]) => keep.includes(k));
    expect([...parseArgs(['x', ...args]).options]).toEqual(kept);
  });
});
