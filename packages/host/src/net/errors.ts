/**
 * A connection target refused by the address policy. Not retryable: the same target would be
 * refused again. The message names the host and the reason, never credentials or query strings.
 *
 * @example
 * throw new TargetBlockedError('localhost', '127.0.0.1', 'loopback');
 * // message: Target "localhost" resolves to 127.0.0.1 (loopback), which the address policy refuses. ...
 */
export class TargetBlockedError extends Error {
  readonly code = 'target_blocked' as const;
  readonly status = 403;
  readonly retryable = false;
  override readonly name = 'TargetBlockedError';

  constructor(
    readonly host: string,
    readonly address: string,
    readonly reason: string,
  ) {
    const where = host === address ? `Target ${address}` : `Target "${host}" resolves to ${address}`;
    super(
      `${where} (${reason}), which the address policy refuses. ` +
        'Use a public address, or allow it with PLATFORM_ALLOW_PRIVATE_TARGETS (1, or a CIDR list).',
    );
  }
}

/**
 * `PLATFORM_ALLOW_PRIVATE_TARGETS` (or another address-policy setting) is malformed.
 *
 * @example
 * throw new InvalidAddressPolicyError('10.0.0.0/33', 'prefix length must be 0-32 for IPv4');
 */
export class InvalidAddressPolicyError extends Error {
  readonly code = 'invalid_address_policy' as const;
  override readonly name = 'InvalidAddressPolicyError';

  constructor(
    readonly entry: string,
    readonly reason: string,
    readonly setting = 'PLATFORM_ALLOW_PRIVATE_TARGETS',
  ) {
    super(
      `${setting}: invalid entry "${entry}" (${reason}). ` +
        'Expected "1" / "true" to allow every private target, or a comma-separated list of CIDRs ' +
        'such as "127.0.0.0/8,10.1.0.0/16,::1/128".',
    );
  }
}
