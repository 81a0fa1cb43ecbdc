import { webhookDeliverySuite } from './webhooks.suite.js';

// The delivery engine on the main thread (PLATFORM_DELIVERY_THREAD=0); see webhooks.e2e.test.ts.
webhookDeliverySuite('0');
