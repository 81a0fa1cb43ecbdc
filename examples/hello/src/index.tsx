import { createIntegration, IntegrationError, publicPath } from '@platform/runtime';
import { channels } from './channels';
import { counter } from './counter';
import { oauth } from './oauth';
import { webhook } from './webhook';

/**
 * The `hello` integration: a counter block, two event handlers, and a public
 * endpoint routing `/oauth`, `/webhook` and `/channels`.
 */
export default createIntegration({
  components: [counter],
  events: {
    installation_setup: async (event, context) => {
      context.logger.info(`hello: installation ${event.installationId} is ${event.status}`);
    },
    space_content_updated: async (event, context) => {
      context.logger.info(`hello: space ${event.spaceId} now at revision ${event.revisionId}`);
      console.log('hello: greeting is', context.environment.installation?.configuration.greeting ?? 'Hello');
    },
  },
  fetch: async (request, context) => {
    switch (publicPath(request, context)) {
      case '/oauth':
        return oauth(request, context);
      case '/webhook':
        return webhook(request, context);
      case '/channels':
        return channels(request, context);
      case '/fail':
        throw new IntegrationError('Nothing to see here', { status: 418, code: 'teapot' });
      default:
        return Response.json({ error: { code: 'not_found', message: 'No such path' } }, { status: 404 });
    }
  },
});
