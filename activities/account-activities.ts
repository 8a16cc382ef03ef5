import type { ProviderPort } from './provider-port';
import type { AccountActivities } from './types';
import { callProvider } from './errors';

export function createAccountActivities(deps: {
  provider: Pick<ProviderPort, 'accounts'>;
}): AccountActivities {
  const { provider } = deps;
  return {
    getAccountRequirements: (query) => callProvider(() => provider.accounts.requirements(query)),
    createAccount: (body, idempotencyKey) =>
      callProvider(() => provider.accounts.create(body, { idempotencyKey })),
  };
}
