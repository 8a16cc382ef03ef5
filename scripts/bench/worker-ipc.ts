// Messages between the bench and its worker process (worker-process.ts).
export interface WorkerMemory {
  rssKb: number;
  /** VmHWM: the process's peak resident set so far */
  peakRssKb: number;
  heapUsedKb: number;
}

export type BenchRequest =
  | { type: 'memory'; id: number }
  | { type: 'heapSnapshot'; id: number; path: string }
  | { type: 'cpuProfileStart'; id: number }
  | { type: 'cpuProfileStop'; id: number; path: string }
  | { type: 'shutdown'; id: number };

export type BenchReply =
  | { type: 'ready'; sinceProcessStartMs: number; createMs: number }
  | { type: 'memory'; id: number; memory: WorkerMemory }
  | { type: 'done'; id: number }
  | { type: 'error'; id: number; message: string };
