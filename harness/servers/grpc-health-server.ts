/**
 * A real gRPC server (@grpc/grpc-js) on 127.0.0.1 for the grpc checker's tests: the standard
 * health service built from its published .proto (grpc/grpc's src/proto/grpc/health/v1/health.proto,
 * written below and read by @grpc/proto-loader, so the checker's hand-written messages are held
 * against the real definition), plain text or TLS with the farm's certificates. `statuses` maps a
 * service name to its ServingStatus; a name not in it answers NOT_FOUND, as the health service's
 * spec says (https://github.com/grpc/grpc/blob/master/doc/health-checking.md). With `health: false`
 * the server has another service only, so Check is UNIMPLEMENTED. `requiredToken` refuses calls
 * without `authorization: Bearer <token>` (UNAUTHENTICATED).
 */
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as protoLoader from '@grpc/proto-loader';
import * as grpc from '@grpc/grpc-js';
import type { KeyAndCert } from './certs';
import { removeDir, tempDir } from '../paths';

const HEALTH_PROTO = `
syntax = "proto3";
package grpc.health.v1;
message HealthCheckRequest { string service = 1; }
message HealthCheckResponse {
  enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; }
  ServingStatus status = 1;
}
service Health {
  rpc Check(HealthCheckRequest) returns (HealthCheckResponse);
  rpc Watch(HealthCheckRequest) returns (stream HealthCheckResponse);
}
`;

const OTHER_PROTO = `
syntax = "proto3";
package farsight.test;
message Empty {}
service Echo { rpc Ping(Empty) returns (Empty); }
`;

export interface GrpcHealthServer {
  port: number;
  /** Metadata the last Check call carried. */
  lastMetadata(): Record<string, unknown> | null;
  stop(): Promise<void>;
}

export interface GrpcHealthOptions {
  statuses?: Record<string, 'UNKNOWN' | 'SERVING' | 'NOT_SERVING' | 'SERVICE_UNKNOWN'>;
  health?: boolean;
  tls?: KeyAndCert;
  requiredToken?: string;
}

/** The .proto read as a server would read its file. */
function definition(text: string): protoLoader.PackageDefinition {
  const dir = tempDir('grpc-proto');
  try {
    writeFileSync(path.join(dir, 'service.proto'), text);
    return protoLoader.loadSync(path.join(dir, 'service.proto'), { keepCase: true, enums: String, defaults: true });
  } finally {
    removeDir(dir);
  }
}

export async function startGrpcHealth(opts: GrpcHealthOptions = {}): Promise<GrpcHealthServer> {
  const server = new grpc.Server();
  let last: Record<string, unknown> | null = null;
  if (opts.health === false) {
    const echo = definition(OTHER_PROTO)['farsight.test.Echo'] as grpc.ServiceDefinition;
    server.addService(echo, { Ping: (_call: unknown, cb: grpc.sendUnaryData<object>) => cb(null, {}) });
  } else {
    const health = definition(HEALTH_PROTO)['grpc.health.v1.Health'] as grpc.ServiceDefinition;
    const statuses = opts.statuses ?? { '': 'SERVING' };
    server.addService(health, {
      Check: (call: grpc.ServerUnaryCall<{ service: string }, unknown>, cb: grpc.sendUnaryData<{ status: string }>) => {
        last = call.metadata.getMap();
        if (opts.requiredToken && call.metadata.get('authorization')[0] !== `Bearer ${opts.requiredToken}`)
          return cb({ code: grpc.status.UNAUTHENTICATED, details: 'a bearer token is needed' });
        const status = statuses[call.request.service];
        if (status === undefined) return cb({ code: grpc.status.NOT_FOUND, details: 'unknown service' });
        cb(null, { status });
      },
      Watch: (call: grpc.ServerWritableStream<unknown, unknown>) => call.end(),
    });
  }
  const credentials = opts.tls
    ? grpc.ServerCredentials.createSsl(null, [
        { private_key: Buffer.from(opts.tls.key), cert_chain: Buffer.from(opts.tls.cert) },
      ])
    : grpc.ServerCredentials.createInsecure();
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', credentials, (err, p) => (err ? reject(err) : resolve(p))),
  );
  return {
    port,
    lastMetadata: () => last,
    stop: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}
