/**
 * The service kinds' client libraries are loaded only when a monitor of their kind is checked:
 * the built service (tsc's output, where every package is a real `require`) with no such monitor
 * has loaded none of them; after a postgres monitor is checked, it has loaded `pg` and nothing
 * else, and so on for mysql, mqtt and grpc. Read by the module probe (test/checkers/drivers/module-probe.ts) on SIGUSR2. Needs
 * `npm run build`. In the bundle (dist/app.js) esbuild keeps each package's module body in a
 * function that runs at its first require, so the same holds there.
 */
import * as path from 'node:path';
import { ROOT, removeDir, tempDir } from '../../harness/paths';
import { Service } from '../../harness/service';
import { requestJson } from '../../harness/http-client';

jest.setTimeout(120_000);

const ENTRY = path.join(ROOT, 'dist', 'tsc', 'src', 'main.js');
const PROBE = path.join(ROOT, 'dist', 'tsc', 'test', 'checkers', 'drivers', 'module-probe.js');

it('loads no client library without a monitor of its kind, and only its own once one is checked', async () => {
  const dataDir = tempDir('lazy');
  const lines: string[] = [];
  const service = await Service.start({
    dataDir,
    entry: ENTRY,
    nodeArgs: ['--require', PROBE],
    onLine: (l) => lines.push(l),
  });
  const loaded = async (): Promise<string[]> => {
    const before = lines.length;
    process.kill(service.pid, 'SIGUSR2');
    for (let i = 0; i < 100; i++) {
      const line = lines.slice(before).find((l) => l.startsWith('module-probe: '));
      if (line) return JSON.parse(line.slice('module-probe: '.length)) as string[];
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the module probe did not answer');
  };
  try {
    const keys = await service.adminKeys(1);
    await service.createMonitors(keys, [
      { name: 'web', kind: 'http', http: { url: 'http://127.0.0.1:9/' } },
      { name: 'mail', kind: 'smtp', smtp: { host: '127.0.0.1', port: 9, tls: 'none' } },
    ]);
    expect(await loaded()).toEqual([]);
    await requestJson('POST', `${service.url}/api/v1/monitors/test`, {
      headers: keys.header(),
      body: { name: 'db', kind: 'postgres', postgres: { url: 'postgres://app@127.0.0.1:9/shop' } },
    });
    expect(await loaded()).toEqual(['pg']);
    await requestJson('POST', `${service.url}/api/v1/monitors/test`, {
      headers: keys.header(),
      body: { name: 'maria', kind: 'mysql', mysql: { url: 'mysql://app@127.0.0.1:9/shop' } },
    });
    expect(await loaded()).toEqual(['pg', 'mysql2']);
    await requestJson('POST', `${service.url}/api/v1/monitors/test`, {
      headers: keys.header(),
      // MQTT.js is required once the socket is open (a closed port is refused before): the service's own port.
      body: { name: 'broker', kind: 'mqtt', mqtt: { url: `mqtt://${new URL(service.url).host}` } },
    });
    expect(await loaded()).toEqual(['pg', 'mysql2', 'mqtt']);
    await requestJson('POST', `${service.url}/api/v1/monitors/test`, {
      headers: keys.header(),
      body: { name: 'api', kind: 'grpc', grpc: { target: '127.0.0.1:9' } },
    });
    // The health service is defined in code: @grpc/proto-loader (and protobufjs) stay unloaded.
    expect(await loaded()).toEqual(['pg', 'mysql2', 'mqtt', '@grpc/grpc-js']);
  } finally {
    await service.stop();
    removeDir(dataDir);
  }
});

it('carries pg, mysql2, mqtt and @grpc/grpc-js in the bundle (dist/main.js): their checks run there too', async () => {
  const dataDir = tempDir('lazy-bundle');
  const service = await Service.start({ dataDir });
  try {
    const keys = await service.adminKeys(1);
    for (const [kind, url] of [
      ['postgres', 'postgres://app@127.0.0.1:9/shop'],
      ['mysql', 'mysql://app@127.0.0.1:9/shop'],
      ['grpc', '127.0.0.1:9'],
    ]) {
      const r = await requestJson<{ error: { code: string } }>('POST', `${service.url}/api/v1/monitors/test`, {
        headers: keys.header(),
        body: { name: kind, kind, [kind]: kind === 'grpc' ? { target: url } : { url } },
      });
      // Refused by the closed port, not "Cannot find module": the library is in the bundle.
      expect(r.error.code).toBe('refused');
    }
    // The service's own port answers MQTT's CONNECT with HTTP: not MQTT, said by MQTT.js's parser.
    const r = await requestJson<{ error: { code: string; message: string } }>(
      'POST',
      `${service.url}/api/v1/monitors/test`,
      {
        headers: keys.header(),
        body: { name: 'mqtt', kind: 'mqtt', mqtt: { url: `mqtt://${new URL(service.url).host}` } },
      },
    );
    expect(r.error.code).toBe('protocol');
    expect(r.error.message).toContain('does not speak MQTT');
  } finally {
    await service.stop();
    removeDir(dataDir);
  }
});
