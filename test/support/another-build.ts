/**
 * The same workflow code plus one comment: the smallest change of code a rebuild without a version bump makes, so
 * another bundle digest and another derived build id.
 *
 * The comment goes before the inline source map, which must stay the bundle's last line: the SDK decodes everything
 * after its `base64,` as the map, and a comment appended after it corrupted the map whenever the map's base64 had no
 * `=` padding to stop the decoder (the map holds the checkout's absolute paths, so that failed in about one clone
 * of three: "Unexpected non-whitespace character after JSON").
 */
export function anotherBuildOf(code: string, comment: string): string {
  const sourceMapAt = code.lastIndexOf('//# sourceMappingURL=data:'); // the SDK's own marker (worker.ts, extractSourceMap)
  if (sourceMapAt <= 0) throw new Error('the workflow bundle has no inline source map to keep last');
  return `${code.slice(0, sourceMapAt)}// ${comment}\n${code.slice(sourceMapAt)}`;
}
