// A Temporal client that records its signalWithStart calls instead of making them: for the code that signals
// entities through their front doors (the ingress's routing, the reconcile activity), checked on what it sends.
import type { Client } from '@temporalio/client';

export interface SignalWithStartCall {
  type: string;
  options: Record<string, unknown>;
}

export function recordingClient(): { client: Client; calls: SignalWithStartCall[] } {
  const calls: SignalWithStartCall[] = [];
  const client = {
    workflow: {
      signalWithStart: async (type: string, options: Record<string, unknown>) => {
        calls.push({ type, options });
        return {};
      },
    },
  } as unknown as Client;
  return { client, calls };
}
