import { defineElement, LAYOUT_CONTAINER } from '../define';
import { stackSchema } from './stack';

export const VStackSchema = stackSchema('vstack', 'Children stacked vertically.');

/** `vstack`. @example <vstack gap="small"><text>a</text><text>b</text></vstack> */
export const element = defineElement({ type: 'vstack', schema: VStackSchema, ...LAYOUT_CONTAINER });
