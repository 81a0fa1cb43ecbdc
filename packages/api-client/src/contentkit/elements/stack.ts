import { z } from 'zod';
import { descendants } from '../define';
import type { ContentKitDescendant } from '../registry';

/*
 * What `vstack` and `hstack` share (each is declared in its own file).
 */

/** `vstack` / `hstack`. */
export interface ContentKitStackShape<T extends 'vstack' | 'hstack' = 'vstack' | 'hstack'> {
  type: T;
  align?: 'start' | 'center' | 'end';
  gap?: 'none' | 'small' | 'medium' | 'large';
  children: ContentKitDescendant[];
}

/**
 * The schema of a stack of either direction.
 * @example stackSchema('vstack', 'Children stacked vertically.')
 */
export function stackSchema<T extends 'vstack' | 'hstack'>(
  type: T,
  description: string,
): z.ZodType<ContentKitStackShape<T>> {
  return z
    .object({
      type: z.literal(type),
      align: z
        .enum(['start', 'center', 'end'])
        .optional()
        .describe('cross-axis alignment; `start` by default'),
      gap: z.enum(['none', 'small', 'medium', 'large']).optional().describe('space between children'),
      children: descendants('elements'),
    })
    .strict()
    .describe(description) as unknown as z.ZodType<ContentKitStackShape<T>>;
}
