// The format of the tree (docs/contributing.md), chosen to match the code as it was written:
// single quotes, semicolons, trailing commas wherever they are allowed, parentheses around every
// arrow's parameters, and lines of at most 120 characters (the code's width; comments are wrapped
// by hand near 100, which Prettier leaves alone). Format with `npx prettier --write .`.
/** @type {import('prettier').Config} */
export default {
  printWidth: 120,
  singleQuote: true,
  semi: true,
  trailingComma: 'all',
  arrowParens: 'always',
};
