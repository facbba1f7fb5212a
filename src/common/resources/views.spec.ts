import { listResources } from './resources';
import { partialNames, render } from './views';

describe('views', () => {
  it('lists shipped files under a folder, sorted, with paths relative to the project root', () => {
    const files = listResources('views/');
    expect(files).toContain('views/dashboard/layout.hbs');
    expect(files).toContain('views/partials/page-head.hbs');
    expect([...files].sort()).toEqual(files);
    expect(listResources('/views/partials')).toEqual(listResources('views/partials/'));
    expect(listResources('views/no-such-folder/')).toEqual([]);
  });

  it('registers every file under views/partials as a partial, named by its path', () => {
    expect(partialNames()).toContain('page-head');
  });

  it('renders a page inside its layout, with the shared head partial', () => {
    const html = render('dashboard/setup', { title: 'Set up <Farsight>' }, 'dashboard/layout');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<title>Set up &lt;Farsight&gt;</title>');
    expect(html).toContain('<meta name="viewport"');
    expect(html).toContain('/dashboard/assets/dashboard.css');
  });
});
