import {
  decodeHealthResponse,
  encodeHealthRequest,
  judgeCallStatus,
  judgeServing,
  parseGrpcTarget,
} from './grpc-health';

describe('parseGrpcTarget', () => {
  it.each([
    ['api.lan:50051', { host: 'api.lan', port: 50051 }],
    ['10.0.0.5:9090', { host: '10.0.0.5', port: 9090 }],
    ['[::1]:50051', { host: '::1', port: 50051 }],
    ['xn--bcher-kva.lan:443', { host: 'xn--bcher-kva.lan', port: 443 }],
  ])('reads %s', (text, target) => {
    expect(parseGrpcTarget(text)).toEqual(target);
  });

  it.each([
    ['api.lan', 'must be host:port'],
    ['grpc://api.lan:50051', 'must be host:port'],
    ['api.lan:50051/x', 'must be host:port'],
    ['::1:50051', 'must be host:port'],
    ['[api.lan]:50051', 'is not a host name or an IP address'],
    ['bücher.lan:50051', 'xn--'],
    ['999.1.1.1:50051', 'is not a host name'],
    ['api.lan:0', 'the port must be from 1 to 65535'],
    ['api.lan:70000', 'the port must be from 1 to 65535'],
    [':50051', 'the host is not a host name'],
  ])('refuses %j', (text, message) => {
    expect(parseGrpcTarget(text)).toEqual(expect.stringContaining(message));
  });
});

describe('the health messages', () => {
  it.each([
    ['', ''],
    ['shop.Cart', '0a0973686f702e43617274'],
    ['x'.repeat(200), `0ac801${'78'.repeat(200)}`],
  ])('encodes a request for %j', (service, hex) => {
    expect(encodeHealthRequest(service).toString('hex')).toBe(hex);
  });

  it.each<[string, number | string]>([
    ['', 0],
    ['0801', 1],
    ['0802', 2],
    ['0803', 3],
    ['12026869' + '0801', 1], // an unknown length-delimited field first
    ['0801' + '1d00000000', 1], // an unknown 32-bit field
    ['08', 'a number is cut short'],
    ['1205ab', 'a field is longer than the message'],
    ['0b', "wire type 3 is not protobuf's"],
    ['19aabb', 'a field is longer than the message'],
  ])('decodes %s', (hex, expected) => {
    expect(decodeHealthResponse(Buffer.from(hex, 'hex'))).toBe(expected);
  });
});

describe('verdicts', () => {
  it.each([
    [1, '', null],
    [2, '', 'not_serving'],
    [0, 'a', 'not_serving'],
    [3, 'a', 'service_unknown'],
    [7, 'a', 'not_serving'],
  ])('serving status %i of %j → %s', (status, service, code) => {
    expect(judgeServing(status, service)?.code ?? null).toBe(code);
  });

  it.each([
    [5, 'service_unknown'],
    [12, 'no_health_service'],
    [16, 'auth_failed'],
    [7, 'not_authorized'],
    [13, 'query_failed'],
    [99, 'query_failed'],
  ])('call status %i → %s', (code, errorCode) => {
    expect(judgeCallStatus(code, 'said', 'svc').code).toBe(errorCode);
  });

  it('names the status and quotes the details without control characters', () => {
    expect(judgeCallStatus(13, 'boom\nthere', '').message).toBe('the health check failed with INTERNAL: boom?there');
  });
});
