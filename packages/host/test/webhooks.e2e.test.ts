import { describe } from 'vitest';
import { BACKENDS } from './backends.js';
import { webhookDeliverySuite } from './webhooks.suite.js';

// The delivery engine in its worker thread (PLATFORM_DELIVERY_THREAD=1); see webhooks.main-thread.e2e.test.ts.
describe.each(BACKENDS)('%s', (backend) => webhookDeliverySuite('1', backend));
