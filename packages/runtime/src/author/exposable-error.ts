import { IntegrationError } from '../errors';

/**
 * An error whose message is meant for the user: the runtime answers it with its status (400 by
 * default) and message, and the dashboard shows the message where the block or screen was.
 * Any other error thrown by integration code stays a generic "The integration failed".
 *
 * @example
 * if (!url.startsWith('https://')) throw new ExposableError('Paste an https:// link to a diagram.');
 */
export class ExposableError extends IntegrationError {
  override readonly name: string = 'ExposableError';

  /**
   * @param message shown to the user as is (keep secrets out of it).
   * @param status HTTP status of the answer (4xx or 5xx); 400 by default.
   */
  constructor(message: string, status = 400) {
    super(message, { status, code: 'exposable_error' });
  }
}
