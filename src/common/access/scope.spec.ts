import { KeyScope, scopeAllows } from './scope';

describe('scopeAllows', () => {
  it.each<[KeyScope, KeyScope, boolean]>([
    ['read', 'read', true],
    ['read', 'write', false],
    ['read', 'admin', false],
    ['write', 'read', true],
    ['write', 'write', true],
    ['write', 'admin', false],
    ['admin', 'read', true],
    ['admin', 'write', true],
    ['admin', 'admin', true],
  ])('a %s key on a route that needs %s is allowed: %s', (have, need, allowed) => {
    expect(scopeAllows(have, need)).toBe(allowed);
  });
});
