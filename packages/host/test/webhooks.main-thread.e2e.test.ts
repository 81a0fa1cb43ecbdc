import { describe } from 'vitest';
import { BACKENDS } from './backends.js';
import { webhookDeliverySuite } from './webhooks.suite.js';

// The delivery engine on the main thread (PLATFORM_DELIVERY_THREAD=0); see webhooks.e2e.test.ts.
describe.each(BACKENDS)('%s', (backend) => webhookDeliverySuite('0', backend));
