import { specRoutes } from './spec-routes';

const table = (section: string, rows: string[]) =>
  `## Endpoints\n\n### ${section}\n\n| Method and path | x |\n|---|---|\n${rows.join('\n')}\n\n## Authentication\n| GET /not/this | x |\n`;

describe('specRoutes', () => {
  it.each([
    [
      'a relative path is under /api/v1',
      'Monitors',
      '| GET /monitors/{id} | read |',
      [['GET', '/api/v1/monitors/{id}']],
    ],
    [
      '/api/, /status and /hb/ paths are absolute anywhere',
      'Monitors',
      '| GET /api/public/status | x |',
      [['GET', '/api/public/status']],
    ],
    [
      '/status-page is not /status: it is relative',
      'Status page',
      '| GET /status-page | read |',
      [['GET', '/api/v1/status-page']],
    ],
    ['/status and its assets are absolute', 'Status page', '| GET /status.css?v= | x |', [['GET', '/status.css']]],
    [
      'several methods',
      'Public routes (no sign-in; absolute paths)',
      '| GET, POST, HEAD /hb/{token} | x |',
      [
        ['GET', '/hb/{token}'],
        ['POST', '/hb/{token}'],
        ['HEAD', '/hb/{token}'],
      ],
    ],
    [
      'several paths, queries dropped, <file> as a parameter',
      'Public routes (no sign-in; absolute paths)',
      '| GET /status.css?v=, /status/fonts/<file>, /icon-512.png | x |',
      [
        ['GET', '/status.css'],
        ['GET', '/status/fonts/{file}'],
        ['GET', '/icon-512.png'],
      ],
    ],
    [
      '/docs/... is the index and its pages',
      'Public routes (no sign-in; absolute paths)',
      '| GET /llms.txt, /docs/... | x |',
      [
        ['GET', '/llms.txt'],
        ['GET', '/docs'],
        ['GET', '/docs/{page}'],
      ],
    ],
  ])('%s', (_name, section, row, want) => {
    expect(specRoutes(table(section, [row])).map((r) => [r.method, r.path])).toEqual(want);
  });

  it('reads only the Endpoints section', () => {
    expect(specRoutes(table('Monitors', ['| GET /summary | read |']))).toEqual([
      { method: 'GET', path: '/api/v1/summary' },
    ]);
  });
});
