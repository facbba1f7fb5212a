import { ProblemRing } from './recent-problems';

describe('ProblemRing', () => {
  const p = (n: number) => ({ at: `t${n}`, level: 'warn' as const, context: 'x', message: `m${n}` });

  it('lists newest first', () => {
    const ring = new ProblemRing(3);
    [1, 2].forEach((n) => ring.add(p(n)));
    expect(ring.list().map((x) => x.message)).toEqual(['m2', 'm1']);
  });

  it('keeps only the last `size`, oldest dropped first', () => {
    const ring = new ProblemRing(3);
    [1, 2, 3, 4, 5].forEach((n) => ring.add(p(n)));
    expect(ring.list().map((x) => x.message)).toEqual(['m5', 'm4', 'm3']);
  });

  it('hands out copies', () => {
    const ring = new ProblemRing(2);
    ring.add(p(1));
    ring.list()[0].message = 'changed';
    expect(ring.list()[0].message).toBe('m1');
  });
});
