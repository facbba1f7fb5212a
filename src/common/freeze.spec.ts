import { deepFreeze } from './freeze';

describe('deepFreeze', () => {
  it.each<[string, () => unknown, (v: never) => void]>([
    ['a top-level field', () => ({ a: 1 }), (v: { a: number }) => (v.a = 2)],
    ['a nested field', () => ({ a: { b: { c: 1 } } }), (v: { a: { b: { c: number } } }) => (v.a.b.c = 2)],
    ['a new field', () => ({ a: 1 }), (v: Record<string, number>) => (v.b = 2)],
    ['a deleted field', () => ({ a: 1 }), (v: { a?: number }) => delete v.a],
    ['an array element', () => ({ list: [1, 2] }), (v: { list: number[] }) => (v.list[0] = 9)],
    ['an array push', () => ({ list: [1, 2] }), (v: { list: number[] }) => v.list.push(3)],
    ['an object inside an array', () => [{ a: 1 }], (v: { a: number }[]) => (v[0].a = 2)],
    [
      'the child of an object that was frozen shallowly before',
      () => Object.freeze({ inner: { a: 1 } }),
      (v: { inner: { a: number } }) => (v.inner.a = 2),
    ],
  ])('makes a write to %s throw', (_what, make, write) => {
    const value = make();
    const before = structuredClone(value);
    deepFreeze(value);
    expect(() => write(value as never)).toThrow(TypeError);
    expect(value).toEqual(before);
  });

  it.each<[string, unknown]>([
    ['a number', 5],
    ['a string', 'text'],
    ['null', null],
    ['undefined', undefined],
  ])('returns %s unchanged', (_what, value) => {
    expect(deepFreeze(value)).toBe(value);
  });

  it('freezes in place and returns the same object', () => {
    const value = { a: { b: 1 } };
    expect(deepFreeze(value)).toBe(value);
    expect(Object.isFrozen(value.a)).toBe(true);
  });

  it('stops at cycles', () => {
    const value: { self?: unknown; child: { parent?: unknown } } = { child: {} };
    value.self = value;
    value.child.parent = value;
    deepFreeze(value);
    expect(Object.isFrozen(value.child)).toBe(true);
  });
});
