export { openUrl, resolveAction, resolveBindings, type State } from './bindings';
export { ContentKitView, type ContentKitViewProps } from './elements';
export { handleBuiltin, LiveComponent, type LiveComponentProps } from './live';
export { Webframe } from './webframe';
