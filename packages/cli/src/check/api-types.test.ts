import { describe, expect, it } from 'vitest';
import { checkScript, PASSED } from '../test-fixtures.js';

/**
 * Enums of the platform API integrations import by name (issue 31, cause 2): a bundle that imports
 * one `@platform/api-client` lacks fails with "No matching export", so a check that passes proves
 * the values are there; the block throws unless they have the API's values.
 */
const SOURCE = `import { ContentKit, createComponent, createIntegration } from '@platform/runtime';
import { ContentVisibility, GitSyncOperationState, RevisionSemanticChangeType } from '@platform/api-client';
const counter = createComponent({
  componentId: 'counter',
  render: async () => {
    const seen = [GitSyncOperationState.Running, RevisionSemanticChangeType.PageMoved, ContentVisibility.Public];
    if (seen.join() !== 'running,page_moved,public') throw new Error('unexpected values ' + seen.join());
    return ContentKit.block(ContentKit.text(seen.join()));
  },
});
export default createIntegration({ components: [counter] });
`;

describe('platform check: API enums integrations import', () => {
  it('bundles and renders an integration that imports GitSyncOperationState, RevisionSemanticChangeType and ContentVisibility', async () => {
    const report = await checkScript({ 'src/index.ts': SOURCE });
    expect(report).toEqual(PASSED);
  });

  it('still names an import the client does not have', async () => {
    const source = SOURCE.replace('ContentVisibility,', 'ContentVisibility, NoSuchEnum,').replace(
      'ContentVisibility.Public]',
      'ContentVisibility.Public, NoSuchEnum.Value]',
    );
    const report = await checkScript({ 'src/index.ts': source });
    expect(report.errors[0]?.message).toMatch(/No matching export .* for import "NoSuchEnum"/);
  });
});
