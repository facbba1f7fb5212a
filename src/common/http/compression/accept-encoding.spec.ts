import { pickEncoding } from './accept-encoding';

describe('pickEncoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['identity', 'identity'],
    ['deflate', 'identity'],
    ['x-gzip', 'gzip'],
    ['gzip;q=0', 'identity'],
  ])('%j -> %s', (header, enc) => expect(pickEncoding(header)).toBe(enc));
});
