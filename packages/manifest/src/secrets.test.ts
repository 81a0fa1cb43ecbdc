// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${{ env.NAME }}` is the secret expression syntax under test
import { describe, expect, it } from 'vitest';
import { InvalidSecretExpressionError, MissingSecretEnvError } from './errors.js';
import { parseSecretValue, resolveSecrets } from './secrets.js';

describe('secret expressions', () => {
  it('splits text and several expressions', () => {
    expect(parseSecretValue('a${{ env.X }}b${{env.Y_2}}').parts).toEqual([
      { kind: 'text', text: 'a' },
      { kind: 'env', name: 'X' },
      { kind: 'text', text: 'b' },
      { kind: 'env', name: 'Y_2' },
    ]);
  });

  it('reports bad and unclosed expressions without quoting the value', () => {
    const { problems } = parseSecretValue('sk_live_123 ${{ sk_live_456 }} ${{ env.A');
    expect(problems).toHaveLength(2);
    expect(problems.join(' ')).not.toContain('sk_live');
  });

  it('resolves from the given environment only', () => {
    const manifest = {
      secrets: { ID: '${{ env.CLIENT_ID }}', PAIR: '${{ env.A }}:${{ env.B }}', LIT: 'plain' },
    };
    expect(resolveSecrets(manifest, { CLIENT_ID: 'id', A: '1', B: '2' })).toEqual({
      ID: 'id',
      PAIR: '1:2',
      LIT: 'plain',
    });
    expect(resolveSecrets({}, {})).toEqual({});
  });

  it('names every missing variable at once and no value', () => {
    const manifest = { secrets: { ID: '${{ env.CLIENT_ID }}', PAIR: '${{ env.A }}:${{ env.B }}' } };
    let caught: unknown;
    try {
      resolveSecrets(manifest, { A: 'super-secret-value' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(MissingSecretEnvError);
    const error = caught as MissingSecretEnvError;
    expect(error.code).toBe('missing_secret_env');
    expect(error.missing).toEqual(['B', 'CLIENT_ID']);
    expect(error.message).toContain('B, CLIENT_ID');
    expect(error.message).not.toContain('super-secret-value');
  });

  it('refuses a malformed expression with a typed error', () => {
    expect(() => resolveSecrets({ secrets: { X: '${{ nope }}' } }, {})).toThrow(InvalidSecretExpressionError);
  });
});
