// scripts/api/undocumented.ts: how `npm run lint:api` finds an exported name without TSDoc in an api-extractor
// report. api-extractor marks it `// @public (undocumented)` above a top-level declaration; members are indented
// and carry `// (undocumented)` alone, and do not count.
import { undocumentedExports } from '../../../scripts/api/undocumented';

const REPORT = [
  '// @public',
  'export function documented(): void;',
  '',
  '// @public (undocumented)',
  'export function bare(): void;',
  '',
  '// Warning: (ae-forgotten-export) The symbol "X" needs to be exported by the entry point index.d.ts',
  '//',
  '// @public (undocumented)',
  'export const BARE_CONST: X;',
  '',
  '// @public',
  'export interface Documented {',
  '    // (undocumented)',
  '    member: string;',
  '}',
  '',
  '// @public (undocumented)',
  'export type BareType = string;',
  '',
  '// @public (undocumented)',
  'export class BareClass {',
  '}',
].join('\n');

describe('undocumentedExports', () => {
  it('names every top-level declaration marked undocumented, and no member', () => {
    expect(undocumentedExports(REPORT)).toEqual(['bare', 'BARE_CONST', 'BareType', 'BareClass']);
  });

  it('finds nothing in a report where every name has TSDoc', () => {
    expect(undocumentedExports('// @public\nexport function documented(): void;\n')).toEqual([]);
  });
});
