// Temporal connection settings through @temporalio/envconfig (temporal.toml profiles,
// TEMPORAL_PROFILE, TEMPORAL_CONFIG_FILE, *_DATA TLS variables, gRPC metadata), our env names still working.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  describeTemporalConfig,
  temporalConfigFromEnv,
  TemporalConfigError,
} from '../../../src/client/connection-config';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'xborder-envconfig-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
}

const PROFILES = `
[profile.default]
address = "temporal.internal:7233"
namespace = "payments"

[profile.prod]
address = "prod.acct.tmprl.cloud:7233"
namespace = "prod.acct"
api_key = "secret-key"

[profile.prod.grpc_meta]
x-tenant = "emea"
`;

describe('temporalConfigFromEnv', () => {
  test('nothing set (and no config file): 127.0.0.1:7233, namespace default, no TLS', () => {
    expect(temporalConfigFromEnv({})).toEqual({ address: '127.0.0.1:7233', namespace: 'default' });
  });

  test('the default profile of TEMPORAL_CONFIG_FILE', () => {
    const config = temporalConfigFromEnv({ TEMPORAL_CONFIG_FILE: file('a.toml', PROFILES) });
    expect(config).toMatchObject({ address: 'temporal.internal:7233', namespace: 'payments' });
    expect(config.tls).toBeUndefined();
  });

  test('TEMPORAL_API_KEY_FILE: the API key from a mounted file (TLS on, as with the key itself); not both', () => {
    const key = file('api-key', 'key-from-file\n');
    expect(
      temporalConfigFromEnv({ TEMPORAL_ADDRESS: 'ns.acct.tmprl.cloud:7233', TEMPORAL_API_KEY_FILE: key }),
    ).toMatchObject({ apiKey: 'key-from-file', tls: {} });
    expect(() => temporalConfigFromEnv({ TEMPORAL_API_KEY: 'k', TEMPORAL_API_KEY_FILE: key })).toThrow(
      TemporalConfigError,
    );
    expect(() => temporalConfigFromEnv({ TEMPORAL_API_KEY_FILE: path.join(dir, 'missing') })).toThrow(
      /TEMPORAL_API_KEY_FILE cannot be read \(ENOENT\)/,
    );
  });

  test('TEMPORAL_PROFILE picks a profile: API key (so TLS on) and gRPC metadata', () => {
    const config = temporalConfigFromEnv({
      TEMPORAL_CONFIG_FILE: file('b.toml', PROFILES),
      TEMPORAL_PROFILE: 'prod',
    });
    expect(config).toMatchObject({
      address: 'prod.acct.tmprl.cloud:7233',
      namespace: 'prod.acct',
      apiKey: 'secret-key',
      tls: {},
    });
    expect(config.metadata).toEqual({ 'x-tenant': 'emea' });
    // secrets never in the description
    expect(describeTemporalConfig(config)).not.toMatch(/secret-key|emea/);
    expect(describeTemporalConfig(config)).toContain('profile prod');
  });

  test('the default file of the user config dir (XDG_CONFIG_HOME/temporalio/temporal.toml)', () => {
    const xdg = path.join(dir, 'xdg');
    mkdirSync(path.join(xdg, 'temporalio'), { recursive: true });
    writeFileSync(path.join(xdg, 'temporalio', 'temporal.toml'), PROFILES);
    if (os.platform() === 'linux')
      expect(temporalConfigFromEnv({ XDG_CONFIG_HOME: xdg }).address).toBe('temporal.internal:7233');
  });

  test('environment variables override the profile', () => {
    const config = temporalConfigFromEnv({
      TEMPORAL_CONFIG_FILE: file('c.toml', PROFILES),
      TEMPORAL_PROFILE: 'prod',
      TEMPORAL_ADDRESS: 'other:7233',
      TEMPORAL_NAMESPACE: 'other-ns',
      TEMPORAL_GRPC_META_X_TENANT: 'apac',
      TEMPORAL_TLS: 'false',
    });
    expect(config).toMatchObject({
      address: 'other:7233',
      namespace: 'other-ns',
      metadata: { 'x-tenant': 'apac' },
    });
    expect(config.tls).toBeUndefined();
  });

  test('our env names still work: TEMPORAL_TLS=1 and =true turn TLS on; TLS from *_DATA and *_PATH', () => {
    expect(temporalConfigFromEnv({ TEMPORAL_TLS: '1' }).tls).toEqual({});
    expect(temporalConfigFromEnv({ TEMPORAL_TLS: 'true' }).tls).toEqual({});
    const ca = file('ca.pem', 'CA-PEM');
    const config = temporalConfigFromEnv({
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: ca,
      TEMPORAL_TLS_CLIENT_CERT_DATA: 'CERT-PEM',
      TEMPORAL_TLS_CLIENT_KEY_DATA: 'KEY-PEM',
      TEMPORAL_TLS_SERVER_NAME: 'server.example',
    });
    expect(config.tls?.serverNameOverride).toBe('server.example');
    expect(config.tls?.serverRootCACertificate?.toString()).toBe('CA-PEM');
    expect(config.tls?.clientCertPair?.crt.toString()).toBe('CERT-PEM');
    expect(config.tls?.clientCertPair?.key.toString()).toBe('KEY-PEM');
  });

  describe('errors name the file and the field', () => {
    const fails = (env: NodeJS.ProcessEnv) => {
      try {
        temporalConfigFromEnv(env);
      } catch (error) {
        expect(error).toBeInstanceOf(TemporalConfigError);
        return (error as Error).message;
      }
      throw new Error('expected temporalConfigFromEnv to throw');
    };

    test('a wrong type', () => {
      const f = file('bad-type.toml', '[profile.default]\naddress = 7233\n');
      const message = fails({ TEMPORAL_CONFIG_FILE: f });
      expect(message).toContain(f);
      expect(message).toContain('profile.default.address');
    });

    test('a misspelt key (it would otherwise land silently on 127.0.0.1:7233)', () => {
      const f = file(
        'typo.toml',
        '[profile.default]\nadress = "x:7233"\n[profile.default.tls]\nserver-name = "x"\n',
      );
      const message = fails({ TEMPORAL_CONFIG_FILE: f });
      expect(message).toContain(f);
      expect(message).toMatch(/profile\.default.*adress/);
      expect(message).toMatch(/profile\.default\.tls.*server-name/);
    });

    test('not TOML', () => {
      const f = file('broken.toml', '[profile.default\naddress = "x"\n');
      expect(fails({ TEMPORAL_CONFIG_FILE: f })).toMatch(
        new RegExp(`${f.replace(/[.]/g, '\\.')} is not valid TOML`),
      );
    });

    test('a named file that does not exist', () => {
      const f = path.join(dir, 'missing.toml');
      expect(fails({ TEMPORAL_CONFIG_FILE: f })).toContain(f);
    });

    test('a profile the file does not have', () => {
      const f = file('d.toml', PROFILES);
      const message = fails({ TEMPORAL_CONFIG_FILE: f, TEMPORAL_PROFILE: 'staging' });
      expect(message).toContain(f);
      expect(message).toContain('profile.staging');
    });

    test('TEMPORAL_PROFILE without any config file', () => {
      expect(fails({ TEMPORAL_PROFILE: 'prod', HOME: dir })).toContain('TEMPORAL_PROFILE=prod');
    });

    test('TEMPORAL_TLS=yes', () => {
      expect(fails({ TEMPORAL_TLS: 'yes' })).toContain('TEMPORAL_TLS');
    });

    test('a client certificate without its key', () => {
      expect(fails({ TEMPORAL_TLS_CLIENT_CERT_DATA: 'CERT' })).toMatch(/certificate and its key/);
    });

    test('a certificate file that does not exist names it', () => {
      expect(fails({ TEMPORAL_TLS_SERVER_CA_CERT_PATH: path.join(dir, 'nope.pem') })).toContain('nope.pem');
    });
  });
});
