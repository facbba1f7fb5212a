/** Spec "Endpoints → Status page" and the public pages and assets of "Public routes". */
import { oneOfValues, ref, str } from '../../common/validation/common.schema';
import { STATUS_RANGES } from '../schemas/status-page.schema';
import type { RouteDoc } from '../route-doc';

const API = '/api/v1';
const tag = 'Status page';
const write = { scope: 'write' } as const;
const pub = { public: true } as const;
const RANGE = [{ name: 'range', schema: oneOfValues(STATUS_RANGES), description: 'anything else gives the page\'s default range' }];
const html = (description: string) => ({ description, type: 'text/html', schema: str() });
const asset = (type: string, description: string) => ({ 200: { description, type, schema: str({ format: 'binary' }) } });
const V = [{ name: 'v', schema: str(), description: 'version, for caching' }];

export const STATUS_PAGE_ROUTES: RouteDoc[] = [
  { method: 'get', path: `${API}/status-page`, id: 'getStatusPage', tag, summary: 'Status page settings, with url, logo, domains and server_ips', access: { scope: 'read' }, answers: { 200: { description: 'settings', schema: ref('StatusPage') } } },
  {
    method: 'put', path: `${API}/status-page`, id: 'updateStatusPage', tag, summary: 'Change the status page', access: write,
    accessNote: '`hosts` needs scope `admin`, and a session also needs a sign-in within 12 hours for `hosts`.',
    description: '`monitors` updates each listed monitor\'s public settings at once.', body: { schema: ref('StatusPageUpdate') },
    answers: { 200: { description: 'settings', schema: ref('StatusPage') } },
  },
  {
    method: 'put', path: `${API}/status-page/logo`, id: 'uploadLogo', tag, summary: 'Upload the logo', access: write,
    description: 'Raw image body, at most 256 KB; the bytes must match the type. A new logo drops the icon made from the old one.',
    body: { type: 'image/*', schema: str({ format: 'binary', description: 'image/png, image/jpeg, image/webp or image/svg+xml' }) },
    answers: { 200: { description: 'stored', schema: ref('Upload') } },
  },
  { method: 'delete', path: `${API}/status-page/logo`, id: 'deleteLogo', tag, summary: 'Remove the logo and the icon made from it', access: write, answers: { 200: { description: 'removed', schema: ref('Ok') } } },
  {
    method: 'put', path: `${API}/status-page/icon`, id: 'uploadIcon', tag, summary: 'Upload the home-screen icon', access: write,
    description: 'A raw square PNG, 180 to 1024 px, at most 256 KB.',
    query: [{ name: 'logo', schema: str(), description: 'the logo version the icon was drawn from' }],
    body: { type: 'image/png', schema: str({ format: 'binary' }) },
    answers: { 200: { description: 'stored', schema: ref('Upload') } }, errors: [409],
  },
  {
    method: 'post', path: `${API}/status-page/preview`, id: 'previewStatusPage', tag, summary: 'Draw the page with draft settings', access: write,
    description: 'The real page drawn from saved settings with the draft on top, marked as a preview (inert links, no refresh, no script); nothing is stored. `hosts` is ignored.',
    body: { schema: ref('Preview') }, answers: { 200: { description: 'the preview', schema: ref('PreviewAnswer') } },
  },
  { method: 'get', path: '/api/public/status', id: 'getPublicStatus', tag: 'Public', summary: 'The public status JSON', access: pub, query: RANGE, answers: { 200: { description: 'public status', schema: ref('PublicStatus') } } },
  { method: 'get', path: '/status', id: 'statusPage', tag: 'Public', summary: 'The status page', description: 'Cached 30 s.', access: pub, query: RANGE, answers: { 200: html('the page') } },
  { method: 'get', path: '/status/{name}', id: 'servicePage', tag: 'Public', summary: 'One service\'s page: bars, response times, 12 months, its incidents', access: pub, query: RANGE, answers: { 200: html('the page') } },
  {
    method: 'get', path: '/status/history', id: 'statusHistory', tag: 'Public', summary: 'Every incident of a public service, three local months per page', access: pub,
    query: [{ name: 'before', schema: str({ pattern: '^\\d{4}-\\d{2}$' }), description: 'YYYY-MM: the three months before that month' }],
    answers: { 200: html('the page') },
  },
  { method: 'get', path: '/status.css', id: 'statusCss', tag: 'Public', summary: 'The page\'s stylesheet (cacheable for a year)', access: pub, query: V, answers: asset('text/css', 'stylesheet') },
  { method: 'get', path: '/status/theme.css', id: 'statusThemeCss', tag: 'Public', summary: 'The accent colour\'s stylesheet', access: pub, query: [{ name: 'a', schema: str({ pattern: '^[0-9a-fA-F]{6}$' }), description: 'accent hex' }], answers: asset('text/css', 'stylesheet') },
  { method: 'get', path: '/status/fonts/{file}', id: 'statusFont', tag: 'Public', summary: 'A font file of the page', access: pub, answers: asset('font/woff2', 'font') },
  { method: 'get', path: '/status/logo', id: 'statusLogo', tag: 'Public', summary: 'The logo (an SVG is served with a sandboxing content security policy)', access: pub, answers: asset('image/*', 'image') },
  { method: 'get', path: '/status.js', id: 'statusJs', tag: 'Public', summary: 'The page\'s one script (cacheable for a year)', access: pub, query: V, answers: asset('text/javascript', 'script') },
  { method: 'get', path: '/status/icon.png', id: 'statusIcon', tag: 'Public', summary: 'The home-screen icon', access: pub, query: V, answers: asset('image/png', 'icon') },
  { method: 'get', path: '/status/manifest.webmanifest', id: 'statusManifest', tag: 'Public', summary: 'The web app manifest', access: pub, answers: asset('application/manifest+json', 'manifest') },
  { method: 'get', path: '/icon-512.png', id: 'icon512', tag: 'Public', summary: 'The service\'s icon, 512 px', access: pub, answers: asset('image/png', 'icon') },
  { method: 'get', path: '/apple-touch-icon.png', id: 'appleTouchIcon', tag: 'Public', summary: 'The home-screen icon for iOS', access: pub, answers: asset('image/png', 'icon') },
];

