import type { IntegrationEnvironment } from '@platform/api-client';

/** Props and state of a component (as `ComponentData` in component.ts, which imports this file). */
type ComponentData = Record<string, unknown>;

/** The props a configuration screen gets from its installation. */
const INSTALLATION_PROPS = ['installation', 'spaceInstallation', 'siteInstallation'] as const;

/**
 * The props a configuration screen (render context `configuration`) starts from: the installation
 * shapes of the environment (`installation`, and `spaceInstallation`/`siteInstallation` when
 * present), over props the host sent under the same names, which may be stale (docs/contentkit.md
 * "Configuration screens"). They are
 * for the component only: {@link withoutInstallationProps} takes them out of the answer, so the
 * configuration never travels back to the page.
 *
 * @example
 * const props = { ...event.props, ...installationProps(context.environment) };
 * props.installation?.configuration;
 */
export function installationProps(environment: IntegrationEnvironment): ComponentData {
  const out: ComponentData = {};
  for (const key of INSTALLATION_PROPS) {
    if (environment[key] !== undefined) out[key] = environment[key];
  }
  return out;
}

/**
 * `props` without the entries still identical to those {@link installationProps} added.
 *
 * @example
 * withoutInstallationProps({ a: 1, installation }, { installation }); // { a: 1 }
 */
export function withoutInstallationProps<Props extends ComponentData>(
  props: Props,
  added: ComponentData,
): Props {
  const out: ComponentData = { ...props };
  for (const [key, value] of Object.entries(added)) if (out[key] === value) delete out[key];
  return out as Props;
}
