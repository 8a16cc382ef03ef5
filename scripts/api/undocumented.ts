// The exported names of an api-extractor report that carry no TSDoc comment: the report marks such a top-level
// declaration `// @public (undocumented)` on the line above it (members are indented and not counted).
const DECLARATION =
  /^export (?:declare )?(?:abstract )?(?:function|class|interface|type|const|let|enum|namespace) ([A-Za-z_$][\w$]*)/;

const UNDOCUMENTED = /^\/\/ (?:@\w+ )?\(undocumented\)$/;

export function undocumentedExports(report: string): string[] {
  const lines = report.split('\n');
  const names: string[] = [];
  lines.forEach((line, i) => {
    const match = DECLARATION.exec(line);
    if (match && UNDOCUMENTED.test(lines[i - 1] ?? '')) names.push(match[1]!);
  });
  return names;
}
