import { ApiError } from '../http/api-error';
import { isIdText, isSlug, parseId } from './ids';

describe('isIdText: a positive integer of at most 15 digits', () => {
  it.each([
    ['1', true],
    ['999999999999999', true],
    ['1000000000000000', false],
    ['0', false],
    ['07', false],
    ['1.0', false],
    ['', false],
    [7, false],
    [null, false],
  ])('%j: %s', (raw, ok) => {
    expect(isIdText(raw)).toBe(ok);
  });
});

describe('isSlug: 1-60 of a-z, 0-9 and -', () => {
  it.each([
    ['nas-1', true],
    ['a'.repeat(60), true],
    ['a'.repeat(61), false],
    ['', false],
    ['Nas', false],
    ['slug:nas', false],
    [1, false],
  ])('%j: %s', (raw, ok) => {
    expect(isSlug(raw)).toBe(ok);
  });
});

describe('parseId', () => {
  it('reads an id as its number', () => {
    expect(parseId('999999999999999', 'channel')).toBe(999999999999999);
  });

  it.each(['1000000000000000', '0', 'x'])('answers not_found for %j: it is no id, so it names nothing', (raw) => {
    let thrown: unknown = null;
    try {
      parseId(raw, 'channel');
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({ status: 404 });
  });
});
