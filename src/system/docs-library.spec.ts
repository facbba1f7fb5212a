import { blurb, buildLibrary } from './docs-library';

describe('buildLibrary', () => {
  const lib = buildLibrary([
    { id: 'stream', markdown: '# Live stream\n\nEvents as they happen.' },
    { id: 'interface', markdown: '# The contract\n\nEverything.' },
    { id: 'zeta-notes', markdown: '# Zeta\n\nLast.' },
    { id: 'alpha-notes', markdown: '# Alpha\n\nFirst.' },
    { id: 'Bad Name', markdown: '# Not served' },
  ]);

  it("groups pages into the menu's sections in reading order, the rest under More by title", () => {
    expect(lib.sections.map((s) => [s.title, s.pages.map((p) => p.id)])).toEqual([
      ['Contract', ['interface']],
      ['Use it', ['stream']],
      ['More', ['alpha-notes', 'zeta-notes']],
    ]);
  });

  it('serves pages by id only when the name is a page name', () => {
    expect(lib.page('stream')).toMatchObject({ title: 'Live stream', lead: 'Events as they happen.' });
    expect(lib.page('Bad Name')).toBeNull();
    expect(lib.page('nope')).toBeNull();
  });
});

describe('blurb', () => {
  it.each([
    ['Short.', 'Short.'],
    [
      'One sentence that runs on. '.repeat(4) + 'x'.repeat(200),
      'One sentence that runs on. One sentence that runs on. One sentence that runs on. One sentence that runs on.',
    ],
    ['word '.repeat(60), `${'word '.repeat(36).trim()}…`],
  ])('%#', (lead, want) => {
    expect(blurb(lead.trim())).toBe(want);
  });
});
