/**
 * Section 5 of the interface extensions, for the homelab around the service: the status page's
 * feeds and the badges. The metrics route sits with the public routes.
 */
import { oneOfValues, str } from '../../common/validation/common.schema';
import { BADGE_RANGES, LABEL_MAX } from '../../status/badges/badge-facts';
import { BADGE_STYLES } from '../../status/badges/badge-svg';
import type { Answer, RouteDoc } from '../route-doc';

const pub = { public: true } as const;
const SLUG = {
  slug: { description: "the service's public slug: the name of its page under /status/ (`/status/{slug}`)" },
};
const STYLE = {
  name: 'style',
  schema: oneOfValues(BADGE_STYLES, { default: 'flat' }),
  description: 'the look, as shields.io draws it',
};
const LABEL = {
  name: 'label',
  schema: str({ minLength: 1, maxLength: LABEL_MAX }),
  description: `the left-hand text instead of the badge's own (1-${LABEL_MAX} characters, no control characters)`,
};
const RANGE = {
  name: 'range',
  schema: oneOfValues(BADGE_RANGES, { default: '30d' }),
  description: 'the period of the uptime figure',
};
const EXTRA = 'section 5 of the interface extensions (badges for READMEs and wikis).';
const svg = (description: string): Answer => ({ description, type: 'image/svg+xml', schema: str() });
const UNKNOWN = svg(
  'no public service has that slug (a private monitor included): a grey "unknown" badge. Cached 60 s like the others',
);

const badge = (
  file: string,
  id: string,
  summary: string,
  says: string,
  extraQuery = [] as (typeof RANGE)[],
): RouteDoc => ({
  method: 'get',
  path: `/badge/{slug}/${file}`,
  id,
  tag: 'Public',
  summary,
  access: pub,
  params: SLUG,
  query: [...extraQuery, STYLE, LABEL],
  description: `${says} SVG with role="img", aria-label and <title>; \`Cache-Control: public, max-age=60\` and an ETag (304 on If-None-Match). docs/badges.md.`,
  extra: EXTRA,
  answers: { 200: svg('the badge'), 304: { description: 'unchanged since the ETag sent' }, 404: UNKNOWN },
  errors: [422],
});

const feed = (ext: 'atom' | 'rss', id: string, format: string, type: string): RouteDoc => ({
  method: 'get',
  path: `/status/feed.${ext}`,
  id,
  tag: 'Public',
  summary: `The status page's incidents as ${format}`,
  access: pub,
  description: `The 50 newest incidents of the public services, newest first (${format}; \`${type}\` whatever Accept says). Cached 60 s with an ETag (304 on If-None-Match); 404 while the page is not published. docs/status-page.md "Feeds".`,
  extra: 'section 5 of the interface extensions (feeds for the people who read the status page).',
  answers: {
    200: { description: 'the feed', type, schema: str() },
    304: { description: 'unchanged since the ETag sent' },
  },
  errors: [404],
});

export const INTEGRATION_ROUTES: RouteDoc[] = [
  feed('atom', 'statusFeedAtom', 'Atom 1.0', 'application/atom+xml'),
  feed('rss', 'statusFeedRss', 'RSS 2.0', 'application/rss+xml'),
  badge(
    'status.svg',
    'badgeStatus',
    "A service's status as a badge",
    'The status word (up, slow, down, paused, unknown) beside the public name.',
  ),
  badge(
    'uptime.svg',
    'badgeUptime',
    "A service's uptime as a badge",
    'Uptime over the range, as the status page counts it.',
    [RANGE],
  ),
  badge(
    'latency.svg',
    'badgeLatency',
    "A service's typical latency as a badge",
    'The typical (median) latency of the last 24 hours.',
  ),
  {
    method: 'get',
    path: '/badge/{slug}/shields.json',
    id: 'badgeShields',
    tag: 'Public',
    summary: "A service's status in the shields.io endpoint format",
    access: pub,
    params: SLUG,
    query: [LABEL],
    description:
      '`{schemaVersion: 1, label, message, color, labelColor, cacheSeconds}` for `https://img.shields.io/endpoint?url=...`. Cached 60 s with an ETag.',
    extra: EXTRA,
    answers: {
      200: { description: 'the endpoint JSON', schema: { type: 'object' } },
      304: { description: 'unchanged since the ETag sent' },
      404: {
        description: 'no public service has that slug: the same JSON with message "unknown"',
        schema: { type: 'object' },
      },
    },
    errors: [422],
  },
];
