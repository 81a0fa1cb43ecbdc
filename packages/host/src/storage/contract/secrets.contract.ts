import { expect, it } from 'vitest';
import { generateKey, isSecretsError } from '../../secrets/index.js';
import { type Ctx, installationInput, integrationInput, TEST_KEY_RING } from './fixtures.js';

const HOUR = 3600_000;
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => 'no error',
    (error: unknown) => error,
  );
const code = (error: unknown) => (isSecretsError(error) ? error.code : String(error));

/** Secrets at rest (src/secrets/README.md): every repository that stores a secret seals it. */
export function secretsContract(ctx: () => Ctx): void {
  it('secrets at rest: each stored secret round-trips through its repository, and a storage without the key opens none of them', async () => {
    const { storage, db } = ctx();
    const now = Date.now();
    await storage.integrations.publish(
      integrationInput({ signingSecret: 'pss_sig', secrets: { API_KEY: 'sk_1' } }),
    );
    const inst = await storage.installations.create(
      installationInput({
        configuration: { channel: 'c', oauth_credentials: { access_token: 'tok_1' } },
      }),
    );
    await storage.webhookSecrets.set(inst.id, 'whsec_old');
    await storage.webhookSecrets.rotate(inst.id, 'whsec_new', HOUR, now);
    await storage.settings.set('installation_token_key', 'itk_1');
    await storage.settings.set('plain_setting', 'visible');
    await storage.webhookSigningKeys.ensure(inst.id, { privateKey: 'whsk_old', publicKey: 'whpk_old' }, now);
    await storage.webhookSigningKeys.rotate(
      inst.id,
      { privateKey: 'whsk_new', publicKey: 'whpk_new' },
      HOUR,
      now,
    );
    expect((await storage.webhookSecrets.deliveryTarget(inst.id, now))?.signingKeys).toEqual([
      'whsk_new',
      'whsk_old',
    ]);

    expect(await storage.webhookSecrets.active(inst.id, now)).toEqual(['whsec_new', 'whsec_old']);
    expect((await storage.webhookSecrets.deliveryTarget(inst.id, now))?.secrets).toEqual([
      'whsec_new',
      'whsec_old',
    ]);
    const integration = await storage.integrations.getLatest('hello');
    expect([integration?.signingSecret, integration?.secrets]).toEqual(['pss_sig', { API_KEY: 'sk_1' }]);
    expect((await storage.installations.get(inst.id))?.configuration).toEqual({
      channel: 'c',
      oauth_credentials: { access_token: 'tok_1' },
    });
    expect(
      (await storage.installations.routes({ spaceId: 'space_1' })).routes[0]?.installation.configuration,
    ).toEqual({ channel: 'c', oauth_credentials: { access_token: 'tok_1' } });
    expect(await storage.settings.get('installation_token_key')).toBe('itk_1');

    const keyless = await db.open(null);
    expect(code(await failure(keyless.webhookSecrets.active(inst.id, now)))).toBe('unknown_key');
    expect(code(await failure(keyless.webhookSecrets.deliveryTarget(inst.id, now)))).toBe('unknown_key');
    // the public keys are not secret: readable without the key
    expect((await keyless.webhookSigningKeys.publicKey(inst.id, now))?.previous?.publicKey).toBe('whpk_old');
    expect(code(await failure(keyless.integrations.getLatest('hello')))).toBe('unknown_key');
    expect(code(await failure(keyless.settings.get('installation_token_key')))).toBe('unknown_key');
    const stored = (await keyless.installations.get(inst.id))?.configuration;
    expect(stored?.channel).toBe('c');
    expect(String(stored?.oauth_credentials)).toMatch(/^enc:v1:/);
    expect(await keyless.settings.get('plain_setting')).toBe('visible');
    const other = await db.open({ current: generateKey() });
    expect(code(await failure(other.webhookSecrets.active(inst.id, now)))).toBe('unknown_key');
  });

  it('secrets at rest: a transaction handle seals too', async () => {
    const { storage, db } = ctx();
    const inst = await storage.installations.create(installationInput());
    await storage.transaction(async (tx) => {
      await tx.webhookSecrets.set(inst.id, 'whsec_tx');
      await tx.installations.update(inst.id, {
        configuration: { oauth_credentials: { access_token: 'tok_tx' } },
      });
    });
    expect(await storage.webhookSecrets.active(inst.id, 0)).toEqual(['whsec_tx']);
    const keyless = await db.open(null);
    expect(code(await failure(keyless.webhookSecrets.active(inst.id, 0)))).toBe('unknown_key');
    expect(String((await keyless.installations.get(inst.id))?.configuration.oauth_credentials)).toMatch(
      /^enc:v1:/,
    );
  });

  it('reseal: plaintext written without a key is sealed, reads the same; a second reseal writes nothing', async () => {
    const { db } = ctx();
    const keyless = await db.open(null);
    const now = Date.now();
    await keyless.integrations.publish(integrationInput({ signingSecret: 'pss_plain', secrets: { K: 'v' } }));
    const inst = await keyless.installations.create(
      installationInput({ configuration: { oauth_credentials: { refresh_token: 'rt' } } }),
    );
    await keyless.webhookSecrets.set(inst.id, 'whsec_plain_old');
    await keyless.webhookSecrets.rotate(inst.id, 'whsec_plain_new', HOUR, now);
    await keyless.settings.set('installation_token_key', 'itk_plain');
    await keyless.webhookSigningKeys.ensure(
      inst.id,
      { privateKey: 'whsk_plain_old', publicKey: 'whpk_1' },
      now,
    );
    await keyless.webhookSigningKeys.rotate(
      inst.id,
      { privateKey: 'whsk_plain_new', publicKey: 'whpk_2' },
      HOUR,
      now,
    );
    await keyless.webhookCredentials.set(inst.id, { headers: { 'x-api-key': 'k_plain' }, auth: 'pw_plain' });
    expect(await keyless.webhookSecrets.active(inst.id, now)).toEqual(['whsec_plain_new', 'whsec_plain_old']);

    const keyed = await db.open();
    // plaintext is readable before the reseal (a host reading what an older host still writes)
    expect(await keyed.webhookSecrets.active(inst.id, now)).toEqual(['whsec_plain_new', 'whsec_plain_old']);
    const first = await keyed.secretsAtRest.reseal(now);
    expect(first).toEqual({
      keyId: keyed.secrets.currentKeyId,
      webhookSecrets: 1,
      webhookSigningKeys: 1,
      webhookCredentials: 1,
      integrations: 1,
      installations: 1,
      settings: 1,
      jobs: 0,
    });
    expect((await keyed.webhookSecrets.deliveryTarget(inst.id, now))?.signingKeys).toEqual([
      'whsk_plain_new',
      'whsk_plain_old',
    ]);
    expect((await keyed.webhookSigningKeys.publicKey(inst.id))?.publicKey).toBe('whpk_2');
    expect(await keyed.webhookCredentials.get(inst.id)).toEqual({
      headers: { 'x-api-key': 'k_plain' },
      auth: 'pw_plain',
    });
    expect((await keyed.webhookSecrets.deliveryTarget(inst.id, now))?.credentials?.auth).toBe('pw_plain');
    expect(await keyed.webhookSecrets.active(inst.id, now)).toEqual(['whsec_plain_new', 'whsec_plain_old']);
    expect((await keyed.webhookSecrets.deliveryTarget(inst.id, now))?.signingKeys).toEqual([
      'whsk_plain_new',
      'whsk_plain_old',
    ]);
    expect(code(await failure(keyless.webhookSecrets.deliveryTarget(inst.id, now)))).toBe('unknown_key');
    const integration = await keyed.integrations.getLatest('hello');
    expect([integration?.signingSecret, integration?.secrets]).toEqual(['pss_plain', { K: 'v' }]);
    expect((await keyed.installations.get(inst.id))?.configuration).toEqual({
      oauth_credentials: { refresh_token: 'rt' },
    });
    expect(await keyed.settings.get('installation_token_key')).toBe('itk_plain');
    expect(code(await failure(keyless.webhookSecrets.active(inst.id, now)))).toBe('unknown_key');
    const second = await keyed.secretsAtRest.reseal(now);
    expect(second).toEqual({
      ...first,
      webhookSecrets: 0,
      webhookSigningKeys: 0,
      webhookCredentials: 0,
      integrations: 0,
      installations: 0,
      settings: 0,
    });
  });

  it('reseal under a new key with the old one listed moves everything to it; the database then refuses the old key alone', async () => {
    const { storage, db } = ctx();
    const inst = await storage.installations.create(installationInput());
    await storage.webhookSecrets.set(inst.id, 'whsec_rot');
    await storage.secretsAtRest.reseal(); // pins the database to the first key
    const next = generateKey();
    const rotated = await db.open({ current: next, old: [TEST_KEY_RING.current] });
    const report = await rotated.secretsAtRest.reseal();
    expect(report.keyId).toBe(rotated.secrets.currentKeyId);
    expect(report.webhookSecrets).toBe(1);
    const onlyNew = await db.open({ current: next });
    expect(await onlyNew.webhookSecrets.active(inst.id, 0)).toEqual(['whsec_rot']);
    expect((await onlyNew.secretsAtRest.reseal()).webhookSecrets).toBe(0);
    const onlyOld = await db.open(TEST_KEY_RING);
    const refused = await failure(onlyOld.secretsAtRest.reseal());
    expect(code(refused)).toBe('unknown_key');
    expect(String(refused)).toContain(`sealed with key ${rotated.secrets.currentKeyId}`);
  });
}
