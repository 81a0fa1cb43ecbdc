import { type Document, isAlias, isMap, isScalar, isSeq, type LineCounter, type Node } from 'yaml';
import type { IssueAnchor, PathSegments } from './issues.js';

interface Found {
  /** Offset of the deepest node reached (value, or key when the value is empty). */
  valueOffset: number;
  /** Offset of the key of the deepest pair reached, when the last step was a mapping key. */
  keyOffset: number | undefined;
  /** Whether the whole path was walked. */
  complete: boolean;
}

function keyText(key: unknown): string | undefined {
  return isScalar(key) ? String(key.value) : undefined;
}

function start(node: Node | null | undefined): number | undefined {
  return node?.range?.[0];
}

/** Walks `path` through the YAML AST as far as it exists. */
function walk(doc: Document, path: PathSegments): Found {
  let node: unknown = doc.contents;
  let found: Found = {
    valueOffset: start(doc.contents as Node | null) ?? 0,
    keyOffset: undefined,
    complete: true,
  };
  for (const segment of path) {
    const target = isAlias(node) ? node.resolve(doc) : node;
    let next: { value: unknown; key?: Node } | undefined;
    if (isMap(target)) {
      const pair = target.items.find((p) => keyText(p.key) === String(segment));
      if (pair) next = { value: pair.value, key: pair.key as Node };
    } else if (isSeq(target) && typeof segment === 'number') {
      const item = target.items[segment];
      if (item !== undefined) next = { value: item };
    }
    if (!next) return { ...found, complete: false };
    const keyOffset = start(next.key);
    found = {
      valueOffset: start(next.value as Node | null) ?? keyOffset ?? found.valueOffset,
      keyOffset,
      complete: true,
    };
    node = next.value;
  }
  return found;
}

/**
 * Finds the 1-based line and column an issue points at. A path that does not exist in the source
 * (a missing key) points at the nearest ancestor that does.
 */
export function locate(
  doc: Document,
  lineCounter: LineCounter,
  path: PathSegments,
  anchor: IssueAnchor,
): { line: number; column: number } {
  let offset: number;
  if (anchor === 'parent') {
    offset = walk(doc, path.slice(0, -1)).valueOffset;
  } else {
    const found = walk(doc, path);
    offset = anchor === 'key' && found.complete ? (found.keyOffset ?? found.valueOffset) : found.valueOffset;
  }
  return position(lineCounter, offset);
}

/** Line and column (1-based) of a character offset. */
export function position(lineCounter: LineCounter, offset: number): { line: number; column: number } {
  const { line, col } = lineCounter.linePos(offset);
  return { line: Math.max(1, line), column: Math.max(1, col) };
}
