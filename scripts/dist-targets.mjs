// Which `dist/X.js` files a workspace package promises: shared by scripts/build.mjs (the build) and
// bench/delivery/build-rev.mjs (a host built at another revision, for an A/B).

/**
 * Collects every `./dist/*.js` file named in a package.json's `exports` (any condition but `source` and
 * `types`) or `bin`.
 *
 * @example
 *   distTargets({ exports: { '.': { default: './dist/index.js' } } }); // ['./dist/index.js']
 */
export function distTargets(pkg) {
  const out = new Set();
  const visit = (v) => {
    if (typeof v === 'string') {
      if (v.startsWith('./dist/') && v.endsWith('.js')) out.add(v);
    } else if (v && typeof v === 'object') {
      for (const [k, sub] of Object.entries(v)) if (k !== 'source' && k !== 'types') visit(sub);
    }
  };
  visit(pkg.exports);
  visit(pkg.bin);
  return [...out];
}
