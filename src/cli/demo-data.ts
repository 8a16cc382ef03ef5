// Bodies of the demo transfer run by `npm start`: a first-time individual sender in Brazil paying
// 100 USDC (Polygon) to her own BRL account by PIX. Valid under every dated rule in force today
// (birthDate within 18–60, accountPurpose, PIX key); no magic values of the sandbox (docs/sandbox.md).
export function demoCustomer(): Record<string, unknown> {
  return {
    type: 'INDIVIDUAL',
    firstName: 'Ana',
    lastName: 'Silva',
    email: 'ana.silva@example.org',
    phone: '+5511999999999',
    birthDate: '1990-05-20',
    accountPurpose: 'Receiving savings sent from abroad',
    address: {
      line1: 'Rua A 1',
      city: 'São Paulo',
      postalCode: '01000-000',
      stateRegionOrProvince: 'SP',
      countryCode: 'BR',
    },
  };
}

export function demoAccount(): Record<string, unknown> {
  return {
    type: 'EXTERNAL_BANK_ACCOUNT',
    currencyCode: 'BRL',
    isThirdParty: false,
    rails: ['PIX'],
    bank: { name: 'Banco Exemplo', countryCode: 'BR', pixCode: 'ana.silva@example.org' },
    accountHolder: {
      type: 'INDIVIDUAL',
      firstName: 'Ana',
      lastName: 'Silva',
      address: { countryCode: 'BR', postalCode: '01000-000', stateRegionOrProvince: 'SP' },
    },
  };
}

export function demoPaymentRequest(): Record<string, unknown> {
  return {
    source: {
      currencyCode: 'USDC',
      amount: 100,
      rail: 'POLYGON',
      fromAddress: '0x1111111111111111111111111111111111111111',
    },
    destination: { currencyCode: 'BRL', rail: 'PIX' },
    reference: 'demo transfer',
    paymentReason: 'PERSONAL_TRANSFERS',
  };
}
