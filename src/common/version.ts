import pkg from '../../package.json';

/** The running service version (package.json), reported by health, the stream and diagnostics. */
export const VERSION: string = pkg.version;
