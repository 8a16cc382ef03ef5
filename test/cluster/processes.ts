// Process helpers of the cluster harness: one copy, shared with `xborder dev`'s dev server (src/cli/processes.ts).
export { isListening, killGroup, stopChild, waitForExit, waitUntilListening } from '../../src/cli/processes';
