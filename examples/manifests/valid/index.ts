// Entry point named by `script` in platform-manifest.yaml (a demo: the manifest is what matters here).
import { createIntegration } from '@platform/runtime';

export default createIntegration({
  events: {},
});
