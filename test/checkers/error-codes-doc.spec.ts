/** docs/checks.md documents exactly the error codes a check can return. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHECK_ERROR_CODES } from '../../src/probes/check-result';

describe('docs/checks.md', () => {
  it('lists every error code in CHECK_ERROR_CODES, and no other', () => {
    const doc = readFileSync(join(__dirname, '../../docs/checks.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Error codes'));
    const documented = [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    expect([...documented].sort()).toEqual([...CHECK_ERROR_CODES].sort());
  });
});
