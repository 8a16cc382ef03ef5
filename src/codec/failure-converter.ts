// Loaded by path (DataConverter.failureConverterPath) by the worker, the client AND the workflow bundle: it runs
// inside the workflow sandbox too, so it imports @temporalio/common only (no Node built-ins, no crypto).
// encodeCommonAttributes moves each failure's message and stack trace into an encoded payload, which the
// encryption codec then encrypts: error messages can carry personal data. History shows the
// message "Encoded failure" instead.
import { DefaultFailureConverter } from '@temporalio/common';

export const failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
