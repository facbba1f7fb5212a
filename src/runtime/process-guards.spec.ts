import { EventEmitter } from 'node:events';
import { logUnhandledRejections } from './process-guards';

describe('logUnhandledRejections', () => {
  it.each<[string, unknown, RegExp]>([
    [
      'an Error, with its message',
      new Error('db closed'),
      /^unhandled rejection \(a bug: please report it\): db closed\n/,
    ],
    ['a string', 'nope', /^unhandled rejection \(a bug: please report it\): nope$/],
    ['undefined', undefined, /: undefined$/],
  ])('logs %s instead of letting the process die', (_what, reason, line) => {
    const proc = new EventEmitter();
    const lines: string[] = [];
    logUnhandledRejections({ error: (m) => lines.push(m) }, proc);
    proc.emit('unhandledRejection', reason, Promise.resolve());
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(line);
  });
});
