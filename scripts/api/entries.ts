// The package's reviewed entry points (package.json "exports"): each has a named export list, an api-extractor
// config (api/<name>.api-extractor.json) and a committed report (api/xborder-<name>.api.md).
export const API_ENTRIES = [
  { name: 'client', source: 'src/client/index.ts' },
  { name: 'contract', source: 'src/contract/public.ts' },
  { name: 'nexus', source: 'src/nexus/service.ts' },
] as const;

export type ApiEntryName = (typeof API_ENTRIES)[number]['name'];
