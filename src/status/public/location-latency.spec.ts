import { orderLatencies, placesOf } from './location-latency';
import { locationViews } from './page-view';
import { defaultPageSettings } from '../settings/look';
import type { PublicService } from './public-model';

describe('placesOf', () => {
  it.each([
    [null, null],
    ['["local"]', null],
    ['[]', null],
    ['["local","vps-fra"]', ['local', 'vps-fra']],
    ['["vps-fra"]', ['vps-fra']],
    ['not json', null],
    ['{"a":1}', null],
    ['[1,2]', null],
  ])('%p gives %p', (json, places) => {
    expect(placesOf(json)).toEqual(places);
  });
});

describe('orderLatencies', () => {
  it('keeps the monitor own order, rounds, and says null for a place with no good check', () => {
    const figures = new Map([
      ['vps-fra', 88.6],
      ['local', 12.2],
    ]);
    expect(orderLatencies(['vps-fra', 'pi', 'local'], figures)).toEqual([
      { name: 'vps-fra', typical_ms: 89 },
      { name: 'pi', typical_ms: null },
      { name: 'local', typical_ms: 12 },
    ]);
  });
});

describe('locationViews', () => {
  const svc = (locations?: PublicService['locations']) => ({ locations }) as PublicService;
  const on = { ...defaultPageSettings(), show_locations: true };
  it.each([
    ['off', defaultPageSettings(), [{ name: 'vps', typical_ms: 80 }], null],
    ['on, no locations', on, undefined, null],
    ['on, an empty list', on, [], null],
    [
      'on',
      on,
      [
        { name: 'local', typical_ms: 12 },
        { name: 'vps', typical_ms: 1530 },
        { name: 'pi', typical_ms: null },
      ],
      [
        { name: 'local', ms: '12 ms' },
        { name: 'vps', ms: '1.5 s' },
        { name: 'pi', ms: 'no data' },
      ],
    ],
  ])('%s', (_what, settings, locations, views) => {
    expect(locationViews(svc(locations), settings)).toEqual(views);
  });
});
