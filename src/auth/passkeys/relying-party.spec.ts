import { passkeyProblem, relyingParty } from './relying-party';

describe('relyingParty', () => {
  it.each([
    ['https://status.example.com', 'status.example.com', 'https://status.example.com'],
    ['https://status.example.com:8443/farsight', 'status.example.com', 'https://status.example.com:8443'],
    ['http://localhost:8080', 'localhost', 'http://localhost:8080'],
    ['http://farsight.test', 'farsight.test', 'http://farsight.test'],
  ])('takes the RP id and origin of %s from the public URL', (url, id, origin) => {
    expect(relyingParty(url)).toEqual({ id, origin, name: 'Farsight' });
  });
});

describe('passkeyProblem', () => {
  it.each<[string, RegExp | null]>([
    ['https://status.example.com', null],
    ['http://localhost:8080', null],
    ['http://farsight.localhost', null],
    ['http://nas.lan:8080', /plain http/],
    ['http://192.168.1.10:8080', /IP address/],
    ['https://192.168.1.10', /IP address/],
    ['https://[2001:db8::1]:8443', /IP address/],
  ])('for %s says %s', (url, problem) => {
    const p = passkeyProblem(url);
    if (problem === null) expect(p).toBeNull();
    else expect(p).toMatch(problem);
  });
});
