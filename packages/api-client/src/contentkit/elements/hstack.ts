import { defineElement, LAYOUT_CONTAINER } from '../define';
import { stackSchema } from './stack';

export const HStackSchema = stackSchema('hstack', 'Children side by side (wrapping on narrow screens).');

/** `hstack`. @example <hstack align="center"><text>a</text><button label="b" onPress={{ action: 'b' }} /></hstack> */
export const element = defineElement({ type: 'hstack', schema: HStackSchema, ...LAYOUT_CONTAINER });
