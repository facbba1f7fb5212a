// The dashboard's shell, for every page: the navigation on small screens, the theme picker,
// signing out, the offline banner's retry button, times in the browser's zone.
import { pageIds } from '../../shared/page.js';
import { post } from './api.js';
import { initOffline } from './offline.js';
import { afterFirstLoad } from './request.js';
import { localTimes } from './format.js';

const $ = pageIds(['nav', 'nav-toggle', 'sign-out', 'theme-select'], 'shell.js');

const nav = $('nav');
const toggle = $('nav-toggle');
toggle.addEventListener('click', () => {
  const open = !nav.classList.contains('open');
  nav.classList.toggle('open', open);
  toggle.setAttribute('aria-expanded', String(open));
  if (open) nav.querySelector('ul a').focus();
});
document.addEventListener('keydown', (ev) => {
  if (ev.key === 'Escape' && nav.classList.contains('open')) {
    nav.classList.remove('open');
    toggle.setAttribute('aria-expanded', 'false');
    toggle.focus();
  }
});

// The theme lives in a cookie the server reads, so every page is drawn in it from the first paint.
$('theme-select').addEventListener('change', (ev) => {
  const theme = ev.target.value;
  document.documentElement.dataset.theme = theme;
  document.cookie =
    'farsight_theme=' + theme + '; Path=/; Max-Age=' + (theme === 'auto' ? 0 : 31536000) + '; SameSite=Strict';
});

$('sign-out').addEventListener('click', async (ev) => {
  ev.currentTarget.disabled = true;
  try {
    await post('auth/logout');
  } finally {
    location.replace('/signin');
  }
});

initOffline();
localTimes();

// Installable: the worker keeps the shell, never an API answer (sw.js). It is registered once the
// page has its first answers: installing fetches the whole shell (about fifty files), which on a
// first visit would otherwise compete with the page's own data.
if ('serviceWorker' in navigator) {
  afterFirstLoad()
    .then(() => navigator.serviceWorker.register('/sw.js'))
    .catch(() => undefined);
}
