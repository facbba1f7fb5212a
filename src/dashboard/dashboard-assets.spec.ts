import { DashboardAssets } from './dashboard-assets';

describe('DashboardAssets.modulesOf', () => {
  const assets = new DashboardAssets();

  it("names every module a page's script imports, directly or through another, once each, by its versioned URL", () => {
    const urls = assets.modulesOf('overview.js');
    const own = urls.filter((u) => u.startsWith('/dashboard/'));
    const names = own.map((u) => /^\/dashboard\/assets\/([a-z0-9-]+\.js)\?v=[0-9a-f]+$/.exec(u)?.[1]);
    // shell.js, api.js, format.js, monitor-row.js, stream.js and checklist.js are imported by
    // overview.js; api.js and format.js are imported again by shell.js, stream.js and monitor-row.js
    // (api.js by checklist.js too).
    expect([...names].sort()).toEqual(['api.js', 'checklist.js', 'format.js', 'monitor-row.js', 'shell.js', 'stream.js']);
    // api.js imports the sign-in pages' shared module by its absolute URL.
    expect(urls.filter((u) => !u.startsWith('/dashboard/'))).toEqual(['/auth/assets/common.js']);
    expect(urls).toContain(assets.url('api.js'));
    expect(urls).not.toContain(assets.url('overview.js'));
  });

  it('names nothing for a module without imports, or a file that is not a module', () => {
    expect(assets.modulesOf('format.js')).toEqual([]);
    expect(assets.modulesOf('app.css')).toEqual([]);
    expect(assets.modulesOf('no-such.js')).toEqual([]);
  });
});
