import { expect, it } from 'vitest';
import { SCOPES } from '../../../host/src/access/principal';
import { TOKEN_SCOPES } from './token-scopes';

it("offers exactly the host's token scopes, in its order and words", () => {
  expect(TOKEN_SCOPES.map((s) => [s.scope, s.words])).toEqual(Object.entries(SCOPES));
});
