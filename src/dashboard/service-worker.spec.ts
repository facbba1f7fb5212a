import { serviceWorkerSource } from './service-worker';

describe('serviceWorkerSource', () => {
  it('writes the shell and its version in front of the worker', () => {
    const src = serviceWorkerSource('self.x = 1;', ['/b.css?v=2', '/a.js?v=1']);
    expect(src.split('\n')[0]).toBe('const SHELL = ["/a.js?v=1","/b.css?v=2"];');
    expect(src).toMatch(/^const VERSION = "[0-9a-f]{12}";$/m);
    expect(src.endsWith('self.x = 1;')).toBe(true);
  });

  it('changes the version when a file of the shell changes, not when the order does', () => {
    const v = (shell: string[]) => /VERSION = "(\w+)"/.exec(serviceWorkerSource('', shell))![1];
    expect(v(['/a.js?v=1', '/b.css?v=2'])).toBe(v(['/b.css?v=2', '/a.js?v=1']));
    expect(v(['/a.js?v=1', '/b.css?v=3'])).not.toBe(v(['/a.js?v=1', '/b.css?v=2']));
  });
});
