import { Logger } from '@nestjs/common';
import { EventBus } from './event-bus';

describe('EventBus', () => {
  let errors: string[];
  beforeEach(() => {
    errors = [];
    jest.spyOn(Logger.prototype, 'error').mockImplementation((message: unknown) => {
      errors.push(String(message));
    });
  });
  afterEach(() => jest.restoreAllMocks());

  it('keeps calling the other listeners when one throws, and logs the failure', () => {
    const bus = new EventBus();
    const heard: number[] = [];
    bus.on('monitor.deleted', () => {
      throw new Error('boom');
    });
    bus.on('monitor.deleted', ({ id }) => heard.push(id));
    bus.emit('monitor.deleted', { id: 7 });
    expect(heard).toEqual([7]);
    expect(errors).toEqual(['listener of monitor.deleted failed: boom']);
  });

  it('catches and logs an async listener whose promise rejects, instead of an unhandled rejection', async () => {
    const bus = new EventBus();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      bus.on('monitor.deleted', async () => {
        await Promise.resolve();
        throw new Error('async boom');
      });
      bus.emit('monitor.deleted', { id: 1 });
      await new Promise((r) => setImmediate(r));
      expect(errors).toEqual(['listener of monitor.deleted failed: async boom']);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('announces a queued event exactly as emit would', () => {
    const bus = new EventBus();
    const heard: unknown[] = [];
    bus.on('path', (p) => heard.push(p));
    bus.announce({ name: 'path', payload: { host: 'db.lan', at: 5 } });
    expect(heard).toEqual([{ host: 'db.lan', at: 5 }]);
  });

  it('stops calling a listener once it is removed', () => {
    const bus = new EventBus();
    const heard: number[] = [];
    const off = bus.on('monitor.deleted', ({ id }) => heard.push(id));
    bus.emit('monitor.deleted', { id: 1 });
    off();
    bus.emit('monitor.deleted', { id: 2 });
    expect(heard).toEqual([1]);
  });

  it('stops calling a listener once its unsubscribe runs, and only that one (the same function added twice stays once)', () => {
    const bus = new EventBus();
    const heard: string[] = [];
    const a = ({ id }: { id: number }) => void heard.push(`a${id}`);
    const offFirst = bus.on('monitor.token', a);
    bus.on('monitor.token', a);
    const offB = bus.on('monitor.token', ({ id }) => void heard.push(`b${id}`));
    bus.emit('monitor.token', { id: 1 });
    offFirst();
    offB();
    offB();
    bus.emit('monitor.token', { id: 2 });
    expect(heard).toEqual(['a1', 'a1', 'b1', 'a2']);
  });

  it('changes the listeners of the next emit, not of the one under way, when a listener adds or removes one', () => {
    const bus = new EventBus();
    const heard: string[] = [];
    let offLate: (() => void) | null = null;
    const offSecond = bus.on('monitor.token', ({ id }) => {
      heard.push(`first${id}`);
      offLate ??= bus.on('monitor.token', ({ id: n }) => void heard.push(`late${n}`));
      offThird();
    });
    const offThird = bus.on('monitor.token', ({ id }) => void heard.push(`third${id}`));
    bus.emit('monitor.token', { id: 1 });
    bus.emit('monitor.token', { id: 2 });
    offSecond();
    bus.emit('monitor.token', { id: 3 });
    expect(heard).toEqual(['first1', 'third1', 'first2', 'late2', 'late3']);
  });
});
