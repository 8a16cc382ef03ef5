// Tests generate their own secrets (house rule: no secret that appears in the repository ever runs; every process
// refuses the published ones, src/security/known-secrets.ts). Fresh per call.
import { randomBytes } from 'node:crypto';

export const generatedApiKey = (): string => `sk_${randomBytes(12).toString('hex')}`;
export const generatedWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;
export const generatedToken = (): string => randomBytes(24).toString('base64url');
export const generatedCodecKey = (): string => randomBytes(32).toString('base64');
