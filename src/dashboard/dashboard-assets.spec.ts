import { DashboardAssets } from './dashboard-assets';

describe('DashboardAssets.modulesOf', () => {
  const assets = new DashboardAssets();

  it("names every module a page's script imports, directly or through another, once each, by its versioned URL", () => {
    const urls = assets.modulesOf('pages/overview.js');
    const own = urls.filter((u) => u.startsWith('/dashboard/'));
    const names = own.map((u) => /^\/dashboard\/assets\/((?:[a-z0-9-]+\/)?[a-z0-9-]+\.js)\?v=[0-9a-f]+$/.exec(u)?.[1]);
    // overview.js imports shell.js, api.js, format.js, monitor-row.js, stream.js, checklist.js and
    // the shared errors.js and page.js; through them come request.js, offline.js, reauth.js (api.js)
    // and passkeys.js (reauth.js), each named once however many modules import it.
    expect(names).toEqual([...new Set(names)]);
    expect(names).toEqual(
      expect.arrayContaining([
        'core/api.js',
        'core/checklist.js',
        'core/format.js',
        'overview/monitor-row.js',
        'core/shell.js',
        'core/stream.js',
      ]),
    );
    expect(names).toEqual(
      expect.arrayContaining([
        'core/request.js',
        'core/offline.js',
        'core/reauth.js',
        'errors.js',
        'page.js',
        'passkeys.js',
      ]),
    );
    // Nothing from the sign-in pages' folder: what both use is in public/shared/, served here too.
    expect(urls.filter((u) => !u.startsWith('/dashboard/'))).toEqual([]);
    expect(urls).toContain(assets.url('core/api.js'));
    expect(urls).not.toContain(assets.url('pages/overview.js'));
  });

  it('names nothing for a module without imports, or a file that is not a module', () => {
    expect(assets.modulesOf('core/format.js')).toEqual([]);
    expect(assets.modulesOf('app.css')).toEqual([]);
    expect(assets.modulesOf('no-such.js')).toEqual([]);
  });
});
