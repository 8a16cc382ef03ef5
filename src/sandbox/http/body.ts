import { type IncomingMessage } from 'node:http';
import { ApiError } from './api-error';

/**
 * Reads the raw body up to `maxBytes` (gap: request size limit, default 1 MiB → 413 PAYLOAD_TOO_LARGE)
 * and parses it as JSON (malformed → 400 MALFORMED_JSON). An empty body parses as undefined.
 */
export async function readJsonBody(
  req: IncomingMessage,
  maxBytes: number,
): Promise<{ raw: string; json: unknown }> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  const raw = Buffer.concat(chunks).toString('utf8');
  if (raw.trim() === '') return { raw, json: undefined };
  try {
    return { raw, json: JSON.parse(raw) as unknown };
  } catch (err) {
    throw new ApiError(400, 'MALFORMED_JSON', `The body is not valid JSON: ${(err as Error).message}`);
  }
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, 'PAYLOAD_TOO_LARGE', `The body exceeds the limit of ${maxBytes} bytes`, [], {
    connection: 'close',
  });
}
