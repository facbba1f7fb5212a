import { commentFrame, eventFrame } from './sse-frame';

describe('eventFrame', () => {
  it.each<[string, string, unknown, number | undefined, string]>([
    ['ab12-1', 'check', { monitor_id: 1 }, undefined, 'id: ab12-1\nevent: check\ndata: {"monitor_id":1}\n\n'],
    [
      'ab12-0',
      'hello',
      { version: '0.1.0' },
      3000,
      'retry: 3000\nid: ab12-0\nevent: hello\ndata: {"version":"0.1.0"}\n\n',
    ],
    [
      'ab12-7',
      'monitors',
      { changed: [], deleted: [3] },
      undefined,
      'id: ab12-7\nevent: monitors\ndata: {"changed":[],"deleted":[3]}\n\n',
    ],
  ])('frames %s %s', (id, event, data, retry, frame) => {
    expect(eventFrame(id, event, data, retry)).toBe(frame);
  });

  it('keeps line breaks inside the data on one data line (JSON escapes them)', () => {
    const frame = eventFrame('b-1', 'check', { error: { code: 'body', message: 'line one\nline two\r\n' } });
    expect(frame.split('\n').filter((l) => l.startsWith('data: '))).toHaveLength(1);
    expect(frame).toContain('line one\\nline two\\r\\n');
    expect(frame.endsWith('}\n\n')).toBe(true);
  });
});

describe('commentFrame', () => {
  it('writes a comment line and a blank line', () => {
    expect(commentFrame('keep-alive')).toBe(': keep-alive\n\n');
  });
});
