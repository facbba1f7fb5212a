import * as pkg from 'class-validator';
import * as parts from './class-validator';
import { IsString, validateSync } from './class-validator';

describe('class-validator, loaded file by file', () => {
  const names = Object.keys(parts).filter((n) => n !== 'validateSync');

  it.each(names)("%s is the package's own export (the same module instance)", (name) => {
    expect((parts as Record<string, unknown>)[name]).toBe((pkg as Record<string, unknown>)[name]);
  });

  it('validates with the metadata its decorators registered', () => {
    class Body {
      @IsString()
      name!: unknown;
    }
    const ok = Object.assign(new Body(), { name: 'x' });
    const bad = Object.assign(new Body(), { name: 1 });
    expect(validateSync(ok)).toEqual([]);
    expect(validateSync(bad).map((e) => e.property)).toEqual(['name']);
    expect(pkg.validateSync(bad).map((e) => e.property)).toEqual(['name']);
  });
});
