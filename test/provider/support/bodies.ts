// Request bodies valid under every dated rule of the spec (checked by the contract's validators).
import {
  type CreateAccountRequest,
  type CreateCustomerRequest,
  type CreatePaymentRequest,
} from '../../../src/contract';
import { uid } from './fixtures';

export function individualCustomer(lastName = 'Lovelace'): CreateCustomerRequest {
  return {
    type: 'INDIVIDUAL',
    firstName: 'Ada',
    lastName,
    email: `${uid('ada')}@example.org`,
    phone: '+12125550100',
    birthDate: '1990-05-01',
    accountPurpose: 'paying suppliers abroad',
    address: {
      line1: '1 Main St',
      city: 'New York',
      postalCode: '10001',
      stateRegionOrProvince: 'NY',
      countryCode: 'US',
    },
  };
}

export function usBankAccount(
  customerId: string,
  overrides: Partial<CreateAccountRequest> = {},
): CreateAccountRequest {
  return {
    type: 'EXTERNAL_BANK_ACCOUNT',
    customerId,
    currencyCode: 'USD',
    isThirdParty: false,
    rails: ['ACH'],
    // listed by GET /accounts/requirements until 2026-07-31, so required until then (tests run the sandbox on both sides)
    accountType: 'CHECKING',
    bank: { name: 'Test Bank', countryCode: 'US', accountNumber: '12345678', routingNumber: '021000021' },
    accountHolder: {
      type: 'INDIVIDUAL',
      firstName: 'Ada',
      lastName: 'Lovelace',
      address: {
        line1: '1 Main St',
        city: 'New York',
        postalCode: '10001',
        stateRegionOrProvince: 'NY',
        countryCode: 'US',
      },
    },
    ...overrides,
  };
}

export function usdcToAch(accountId: string, amount = 100): CreatePaymentRequest {
  return {
    source: {
      currencyCode: 'USDC',
      amount,
      rail: 'POLYGON',
      fromAddress: '0x1111111111111111111111111111111111111111',
    },
    destination: { currencyCode: 'USD', rail: 'ACH', accountId },
    paymentReason: 'PURCHASE_OF_SERVICES',
    reference: uid('inv'),
  };
}
