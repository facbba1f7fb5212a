import { credentialShapeProblems } from './credential-shape';

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64url');
const clientData = b64(JSON.stringify({ type: 'webauthn.get', challenge: 'abc', origin: 'https://x.test' }));
const good = {
  id: 'AAAA',
  rawId: 'AAAA',
  response: { clientDataJSON: clientData, authenticatorData: b64(Buffer.alloc(37)) },
};

describe('credentialShapeProblems', () => {
  it('finds nothing wrong with a well-formed credential', () => {
    expect(credentialShapeProblems(good)).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a rawId unlike the id', { rawId: 'AAAB' }, 'credential.rawId'],
    [
      'client data that is not JSON',
      { response: { ...good.response, clientDataJSON: b64('{not json') } },
      'credential.response.clientDataJSON',
    ],
    [
      'client data that is a JSON array',
      { response: { ...good.response, clientDataJSON: b64('[1,2]') } },
      'credential.response.clientDataJSON',
    ],
    [
      'client data without an origin',
      { response: { ...good.response, clientDataJSON: b64(JSON.stringify({ type: 'webauthn.get', challenge: 'x' })) } },
      'credential.response.clientDataJSON',
    ],
    [
      'client data with a numeric challenge',
      {
        response: {
          ...good.response,
          clientDataJSON: b64(JSON.stringify({ type: 'webauthn.get', challenge: 1, origin: 'o' })),
        },
      },
      'credential.response.clientDataJSON',
    ],
    [
      'authenticator data of 36 bytes',
      { response: { ...good.response, authenticatorData: b64(Buffer.alloc(36)) } },
      'credential.response.authenticatorData',
    ],
  ])('reports %s on its field', (_label, patch, field) => {
    expect(credentialShapeProblems({ ...good, ...patch } as typeof good)).toEqual([
      { field, message: expect.any(String) },
    ]);
  });

  it('does not ask for authenticator data on a registration answer', () => {
    expect(credentialShapeProblems({ id: 'A', rawId: 'A', response: { clientDataJSON: clientData } })).toEqual([]);
  });
});
