import { type AccountService } from './domain/accounts';
import { type CustomerService } from './domain/customers';
import { type SandboxData, type StoredCustomer } from './state';

/**
 * Ready-made approved customers and accounts (`--demo-data`; GET /sandbox/fixtures), like the objects of a
 * provider's test mode. Ids are fixed so scripts can name them. Bodies satisfy every dated rule at any date.
 */
const ADDRESS_US = {
  line1: '1 Main St',
  city: 'New York',
  postalCode: '10001',
  stateRegionOrProvince: 'NY',
  countryCode: 'US',
};
const DESCRIPTION =
  'Acme Imports Ltd imports and distributes consumer electronics accessories to retailers in North America and Europe. ' +
  'It pays suppliers in Asia and Latin America by invoice and receives payments from retail partners by bank transfer.';

export const DEMO_CUSTOMERS: Array<{ id: string; body: Record<string, unknown> }> = [
  {
    id: 'cus_demo_individual',
    body: {
      type: 'INDIVIDUAL',
      firstName: 'Jane',
      lastName: 'Doe',
      birthDate: '1990-05-15',
      email: 'jane.doe@example.com',
      phone: '+12125550100',
      accountPurpose: 'Family support',
      address: ADDRESS_US,
    },
  },
  {
    id: 'cus_demo_business',
    body: {
      type: 'BUSINESS',
      name: 'Acme Imports Ltd',
      description: DESCRIPTION,
      email: 'finance@acme-imports.example',
      phone: '+12125550101',
      accountPurpose: 'Supplier payments',
      address: ADDRESS_US,
      estimatedAnnualRevenueUSD: 'ONE_MILLION_TO_TEN_MILLION',
      expectedMonthlyPaymentsUSD: 250000,
      operatesInProhibitedCountries: false,
      highRiskActivities: [],
      conductsMoneyServices: false,
      actingAsIntermediary: false,
      sourceOfFundsDescription: 'Revenue from sales to retail partners',
      documents: [
        { type: 'PROOF_OF_NATURE_OF_BUSINESS', fileUrl: 'https://files.example/acme/invoices.pdf' },
        { type: 'PROOF_OF_ADDRESS', fileUrl: 'https://files.example/acme/lease.pdf' },
        { type: 'PROOF_OF_SOURCE_OF_FUNDS', fileUrl: 'https://files.example/acme/statement.pdf' },
      ],
      associatedPersons: [
        { firstName: 'John', lastName: 'Smith', title: 'CEO', countryCode: 'US', birthDate: '1980-01-01' },
      ],
    },
  },
];

const holder = (
  firstName: string,
  lastName: string,
  countryCode: string,
  postalCode: string,
  state?: string,
) => ({
  type: 'INDIVIDUAL',
  firstName,
  lastName,
  address: {
    line1: '1 High St',
    city: 'City',
    postalCode,
    ...(state ? { stateRegionOrProvince: state } : {}),
    countryCode,
  },
});

export const DEMO_ACCOUNTS: Array<{
  id: string;
  description: string;
  balance?: number;
  body: Record<string, unknown>;
}> = [
  {
    id: 'acc_demo_usd_bank',
    description: 'external bank account, USD, US (ACH/wire)',
    body: {
      type: 'EXTERNAL_BANK_ACCOUNT',
      customerId: 'cus_demo_individual',
      currencyCode: 'USD',
      bank: { name: 'Chase', countryCode: 'US', accountNumber: '123456789012', routingNumber: '021000021' },
      accountType: 'CHECKING',
      accountHolder: holder('Jane', 'Doe', 'US', '10001', 'NY'),
    },
  },
  {
    id: 'acc_demo_eur_bank',
    description: 'external bank account, EUR, DE (IBAN, LOCAL)',
    body: {
      type: 'EXTERNAL_BANK_ACCOUNT',
      accountType: 'CHECKING',
      customerId: 'cus_demo_individual',
      currencyCode: 'EUR',
      rails: ['LOCAL'],
      bank: {
        name: 'Deutsche Bank',
        countryCode: 'DE',
        iban: 'DE89370400440532013000',
        bicSwift: 'DEUTDEFF',
      },
      accountHolder: holder('Hans', 'Muller', 'DE', '10115'),
    },
  },
  {
    id: 'acc_demo_gbp_bank',
    description: 'external bank account, GBP, GB (sort code, LOCAL)',
    body: {
      type: 'EXTERNAL_BANK_ACCOUNT',
      accountType: 'CHECKING',
      customerId: 'cus_demo_individual',
      currencyCode: 'GBP',
      rails: ['LOCAL'],
      bank: { name: 'NatWest', countryCode: 'GB', accountNumber: '31926819', sortCode: '601613' },
      accountHolder: holder('Alice', 'Smith', 'GB', 'SW1A 1AA'),
    },
  },
  {
    id: 'acc_demo_brl_bank',
    description: 'external bank account, BRL, BR (PIX)',
    body: {
      type: 'EXTERNAL_BANK_ACCOUNT',
      accountType: 'CHECKING',
      customerId: 'cus_demo_individual',
      currencyCode: 'BRL',
      rails: ['PIX', 'TED'],
      bank: {
        name: 'Itau',
        countryCode: 'BR',
        pixCode: 'joao@example.com.br',
        accountNumber: '123456789',
        bankCode: '341',
        branchCode: '0001',
      },
      accountHolder: holder('Joao', 'Silva', 'BR', '01000-000'),
    },
  },
  {
    id: 'acc_demo_inr_bank',
    description: 'external bank account, INR, IN (IMPS)',
    body: {
      type: 'EXTERNAL_BANK_ACCOUNT',
      accountType: 'CHECKING',
      customerId: 'cus_demo_individual',
      currencyCode: 'INR',
      bank: { name: 'HDFC', countryCode: 'IN', accountNumber: '50100012345678', ifscCode: 'HDFC0000123' },
      accountHolder: holder('Priya', 'Sharma', 'IN', '400001'),
    },
  },
  {
    id: 'acc_demo_mxn_bank',
    description: 'external bank account, MXN, MX (CLABE)',
    body: {
      type: 'EXTERNAL_BANK_ACCOUNT',
      accountType: 'CHECKING',
      customerId: 'cus_demo_business',
      currencyCode: 'MXN',
      bank: { name: 'BBVA', countryCode: 'MX', clabeNumber: '032180000118359719' },
      accountHolder: {
        type: 'BUSINESS',
        businessName: 'Proveedor SA',
        address: { line1: 'Av. Reforma 1', city: 'CDMX', postalCode: '06600', countryCode: 'MX' },
      },
    },
  },
  {
    id: 'acc_demo_usdc_wallet',
    description: 'external digital asset wallet, USDC on POLYGON',
    body: {
      type: 'EXTERNAL_DIGITAL_ASSET_WALLET',
      customerId: 'cus_demo_individual',
      currencyCode: 'USDC',
      rails: ['POLYGON'],
      walletAddress: '0x1111111111111111111111111111111111111111',
      accountHolder: holder('Jane', 'Doe', 'US', '10001'),
    },
  },
  {
    id: 'acc_demo_usd_virtual',
    description: 'virtual bank account, USD, balance 100000',
    balance: 100_000,
    body: {
      type: 'VIRTUAL_BANK_ACCOUNT',
      customerId: 'cus_demo_business',
      currencyCode: 'USD',
      accountHolder: { type: 'BUSINESS', businessName: 'Acme Imports Ltd', address: ADDRESS_US },
    },
  },
  {
    id: 'acc_demo_eur_virtual',
    description: 'virtual bank account, EUR, balance 50000',
    balance: 50_000,
    body: {
      type: 'VIRTUAL_BANK_ACCOUNT',
      customerId: 'cus_demo_business',
      currencyCode: 'EUR',
      rails: ['LOCAL'],
      accountHolder: { type: 'BUSINESS', businessName: 'Acme Imports Ltd', address: { ...ADDRESS_US } },
    },
  },
  {
    id: 'acc_demo_usdc_virtual',
    description: 'virtual digital asset wallet, USDC on POLYGON, balance 100000',
    balance: 100_000,
    body: {
      type: 'VIRTUAL_DIGITAL_ASSET_WALLET',
      customerId: 'cus_demo_business',
      currencyCode: 'USDC',
      rails: ['POLYGON'],
    },
  },
  {
    id: 'acc_demo_usd_autoconvert',
    description: 'virtual bank account, USD, automatic conversion to acc_demo_usdc_wallet',
    body: {
      type: 'VIRTUAL_BANK_ACCOUNT',
      customerId: 'cus_demo_individual',
      currencyCode: 'USD',
      liquidationAccountId: 'acc_demo_usdc_wallet',
      accountHolder: holder('Jane', 'Doe', 'US', '10001'),
    },
  },
];

export function loadDemoData(customers: CustomerService, accounts: AccountService, data: SandboxData): void {
  for (const { id, body } of DEMO_CUSTOMERS) {
    if (data.customers[id]) continue;
    customers.create(body, { fixedId: id, status: 'APPROVED' });
    data.fixtures.push({
      id,
      kind: 'customer',
      description: `approved ${String(body.type).toLowerCase()} customer`,
    });
  }
  for (const { id, body, balance, description } of DEMO_ACCOUNTS) {
    if (data.accounts[id]) continue;
    accounts.create(body, id);
    if (balance !== undefined) data.balances[id] = balance;
    data.fixtures.push({ id, kind: 'account', description });
  }
}

/** `--seed` file: customers and accounts created at start (with their `id` and `status` when given). */
export function loadSeed(
  seed: {
    customers?: Array<Record<string, unknown>>;
    accounts?: Array<Record<string, unknown>>;
    balances?: Record<string, number>;
  },
  customers: CustomerService,
  accounts: AccountService,
  data: SandboxData,
): void {
  for (const raw of seed.customers ?? []) {
    const { id, status, ...body } = raw;
    if (typeof id === 'string' && data.customers[id]) continue;
    customers.create(body, {
      fixedId: typeof id === 'string' ? id : undefined,
      status: (status as StoredCustomer['status'] | undefined) ?? 'APPROVED',
    });
  }
  for (const raw of seed.accounts ?? []) {
    const { id, ...body } = raw;
    if (typeof id === 'string' && data.accounts[id]) continue;
    accounts.create(body, typeof id === 'string' ? id : undefined);
  }
  Object.assign(data.balances, seed.balances ?? {});
}
