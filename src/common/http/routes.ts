/** The authenticated API root (spec: `{base_url}/api/v1`). */
export const API_ROOT = 'api/v1';
