// One progress line while the bench runs: rewritten in place on a terminal, every few seconds otherwise (CI logs).
export interface Progress {
  update(text: string): void;
  /** A line that stays (a step finished). */
  log(text: string): void;
}

export function createProgress(stream: NodeJS.WriteStream = process.stderr): Progress {
  const started = Date.now();
  let lastPrinted = 0;
  let shown = false;
  const stamp = () => `[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s]`;
  return {
    update(text) {
      if (stream.isTTY) {
        stream.write(`\r\x1b[K${stamp()} ${text}`);
        shown = true;
      } else if (Date.now() - lastPrinted > 5_000) {
        stream.write(`${stamp()} ${text}\n`);
        lastPrinted = Date.now();
      }
    },
    log(text) {
      if (shown) stream.write('\r\x1b[K');
      shown = false;
      stream.write(`${stamp()} ${text}\n`);
    },
  };
}
