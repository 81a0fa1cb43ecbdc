export { type ApiOptions, createApi } from './api/app.js';
export { ConfigError, type HostConfig, loadConfig } from './config.js';
export { HttpError } from './errors.js';
export { HOST_VERSION, type Host, startHost } from './host.js';
