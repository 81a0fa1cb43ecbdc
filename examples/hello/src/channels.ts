import type { FetchHandler } from '@platform/runtime';

/**
 * One choice of a `completion_url` dropdown. Response shape of a completion endpoint
 * (docs/contracts.md "Integration definition", completion endpoints): `{"options": [{"value": "...", "label": "..."}]}`, where
 * `value` is stored in the configuration and `label` is shown. `?query=` filters.
 */
export interface CompletionOption {
  value: string;
  label: string;
}

const CHANNELS = ['general', 'random', 'docs', 'releases'];

/**
 * `GET {publicEndpoint}/channels`: the options of the `channel` property.
 *
 * @example await channels(new Request('https://p/channels?query=re'), context); // releases
 */
export const channels: FetchHandler = (request) => {
  const query = new URL(request.url).searchParams.get('query')?.toLowerCase() ?? '';
  const options: CompletionOption[] = CHANNELS.filter((c) => c.includes(query)).map((c) => ({
    value: c,
    label: `#${c}`,
  }));
  return Response.json({ options });
};
