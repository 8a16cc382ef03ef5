// The tests' "another build" (the same bundle plus a comment) must stay a bundle the SDK loads, whatever the length of
// its source map: a comment appended after the inline map failed in about one checkout of three (the map holds
// absolute paths), whenever the map's base64 had no `=` padding to stop the decoder.
import { parseWorkflowCode } from '@temporalio/worker/lib/worker';
import { anotherBuildOf } from '../support/another-build';

function bundleWithMapOfLength(mapFileLength: number): string {
  const map = JSON.stringify({
    version: 3,
    file: 'x'.repeat(mapFileLength),
    sources: [],
    names: [],
    mappings: '',
  });
  return `var code = 1;\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(map).toString('base64')}`;
}

it('keeps the inline source map last, so the SDK loads the changed bundle for every map length', () => {
  const unpadded = [0, 1, 2].map(bundleWithMapOfLength).find((code) => !code.endsWith('='))!;
  // the way it was done before: the comment after the map is decoded into it
  expect(() => parseWorkflowCode(`${unpadded}\n// the next build\n`, '/x.js')).toThrow(SyntaxError);
  for (const length of [0, 1, 2, 3]) {
    const changed = anotherBuildOf(bundleWithMapOfLength(length), 'the next build');
    expect(changed).toContain('// the next build\n//# sourceMappingURL=');
    expect(parseWorkflowCode(changed, '/x.js').code).toContain('var code = 1;');
  }
});

it('refuses a bundle with no inline source map rather than guess where code ends', () => {
  expect(() => anotherBuildOf('var code = 1;\n', 'x')).toThrow(/no inline source map/);
});
