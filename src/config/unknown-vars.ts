/**
 * FARSIGHT_* variables the service does not read: almost always a typo (FARSIGHT_LISTN), which
 * would otherwise leave the setting at its default without a word. Reported at start as a
 * warning naming the closest known variable; never a failure (a variable of a newer or older
 * version, or of the build tools, must not stop a start). Pure.
 */

/** Every variable `loadConfig` reads (each may also come as `<NAME>_FILE`). */
export const KNOWN_VARIABLES = [
  'FARSIGHT_DATA_DIR',
  'FARSIGHT_LISTEN',
  'FARSIGHT_PUBLIC_URL',
  'FARSIGHT_HTTPS_LISTEN',
  'FARSIGHT_ACME_HTTP_LISTEN',
  'FARSIGHT_ACME_DIRECTORY',
  'FARSIGHT_ACME_CA_FILE',
  'FARSIGHT_DNS_SERVERS',
  'FARSIGHT_SMTP',
  'FARSIGHT_SMTP_FALLBACK',
  'FARSIGHT_MAIL_FROM',
  'FARSIGHT_CANARIES',
  'FARSIGHT_TRUST_PROXY',
  'FARSIGHT_SERVER_IPS',
  'FARSIGHT_CHALLENGE_SITE_KEY',
  'FARSIGHT_CHALLENGE_SECRET',
  'FARSIGHT_CHALLENGE_VERIFY_URL',
  'FARSIGHT_LOG_LEVEL',
  'FARSIGHT_SECRET_KEY',
  'FARSIGHT_SECRET_KEY_FILE',
  'FARSIGHT_REFUSE_ROOT',
] as const;

/** Read by the build, packaging and test scripts, or by a CLI command, not by the service: accepted without a word. */
const TOOLING_VARIABLES = new Set([
  // `farsight import-kuma`: the admin API key it calls the running service with.
  'FARSIGHT_API_KEY',
  'FARSIGHT_API_KEY_FILE',
  'FARSIGHT_BIN',
  'FARSIGHT_CODE_CACHE',
  'FARSIGHT_DEB_MAINTAINER',
  'FARSIGHT_ENV_FILE',
  'FARSIGHT_MINIFY',
  'FARSIGHT_SKIP_BUILD',
  'FARSIGHT_SMOKE_KEEP',
  'FARSIGHT_STRIP',
  'FARSIGHT_TRACE_OPTIONAL',
]);

/** The warning lines for the FARSIGHT_* names in `env` that nothing reads, in name order. */
export function unknownVariableWarnings(names: readonly string[]): string[] {
  const known = new Set<string>(KNOWN_VARIABLES);
  const out: string[] = [];
  for (const name of [...names].sort()) {
    if (!name.startsWith('FARSIGHT_') || TOOLING_VARIABLES.has(name)) continue;
    const base =
      name.endsWith('_FILE') && known.has(name.slice(0, -'_FILE'.length)) ? name.slice(0, -'_FILE'.length) : name;
    if (known.has(base)) continue;
    // FARSIGHT_SMTPP_FILE is read as a typo of FARSIGHT_SMTP, given as a file.
    const asFile = name.endsWith('_FILE') && name !== 'FARSIGHT_SECRET_KEY_FILE';
    const stem = closest(asFile ? name.slice(0, -'_FILE'.length) : name, KNOWN_VARIABLES);
    const near = stem && asFile ? `${stem}_FILE` : stem;
    out.push(
      `${name} is not a Farsight setting and is ignored${near ? `: did you mean ${near}?` : ''} (docs/configuration.md lists them)`,
    );
  }
  return out;
}

/** The known name nearest to `name` by edit distance, when it is near enough to be a typo. */
function closest(name: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = editDistance(name, k);
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  // A third of the part after FARSIGHT_ may differ: LISTN → LISTEN, PUBLIC_ULR → PUBLIC_URL.
  const limit = Math.max(2, Math.ceil((name.length - 'FARSIGHT_'.length) / 3));
  return bestDistance <= limit ? best : null;
}

/** Levenshtein distance, with a swap of two neighbours counting as one edit. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
