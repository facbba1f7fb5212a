// The status page editor: every look key, the header links, which monitors are public with
// their public names, sections and order (drag, or the arrow buttons from the keyboard), the
// order of sections, the logo and the home-screen icon (drawn from the logo in a canvas here and
// uploaded with `logo=<v>`), and the custom hosts with their domain states. Every change shows
// in the preview (POST /status-page/preview draws the real page from the draft) before saving.
import '../core/shell.js';
import { errorWords } from '../../shared/errors.js';
import { pageIds, say } from '../../shared/page.js';
import { api, get, getAll, put } from '../core/api.js';
import { clearErrors, fieldErrors } from '../core/field-errors.js';
import { el, when } from '../core/format.js';
import { addRow, clearRows, textField } from '../core/rows.js';
import '../settings/subscribers.js';

const $ = pageIds(
  [
    'discard',
    'domains',
    'editor',
    'icon-bg',
    'icon-canvas',
    'icon-make',
    'loading',
    'logo-error',
    'logo-file',
    'logo-img',
    'logo-none',
    'logo-ok',
    'logo-remove',
    'open-page',
    'page-url',
    'preview',
    'pub-list',
    'pv-range',
    'pv-state',
    'saved',
    'section-order',
    'sections-box',
    'server-ips',
    'sp-accent-pick',
    'sp-form',
  ],
  'status-page.js',
);
const form = $('sp-form');
const LOOK = ['layout', 'theme', 'accent', 'palette', 'font', 'bar_style', 'bar_shape', 'default_range'];
const FLAGS = [
  'enabled',
  'show_response',
  'show_uptime',
  'show_summary',
  'show_locations',
  'fold_groups',
  'auto_refresh',
  'subscribers',
];
const LINK_ROW = (i, v = {}) => [
  textField(`links.${i}.label`, 'Label', v.label, { maxlength: '60' }),
  textField(`links.${i}.url`, 'URL', v.url, { placeholder: 'https:// or mailto:' }),
];
let saved = null;
let monitors = [];
let order = []; // monitor ids in page order
let loadedOrder = []; // the order as saved: a save sends the order only when it differs
let groupOrder = [];

// --- filling the form --------------------------------------------------------------------------

function fill(page) {
  saved = page;
  form.elements.title.value = page.title || '';
  form.elements.app_name.value = page.app_name || '';
  form.elements.description.value = page.description || '';
  for (const k of LOOK) form.elements[k].value = page[k];
  $('sp-accent-pick').value = page.accent;
  for (const k of FLAGS) form.elements[k].checked = !!page[k];
  form.querySelectorAll('input[name=ranges]').forEach((c) => {
    c.checked = page.ranges.includes(c.value);
  });
  form.elements['website.label'].value = page.website ? page.website.label : '';
  form.elements['website.url'].value = page.website ? page.website.url : '';
  clearRows(form, 'links');
  for (const l of page.links || []) addRow(form, 'links', LINK_ROW, l);
  form.elements.hosts.value = (page.hosts || []).join('\n');
  $('page-url').href = page.url;
  $('page-url').textContent = page.url;
  $('open-page').href = page.url;
  $('pv-range').value = page.default_range;
  groupOrder = [...(page.group_order || [])];
  const byId = new Map(page.monitors.map((m) => [m.id, m]));
  for (const m of monitors) Object.assign(m, byId.get(m.id) || {});
  order = monitors
    .slice()
    .sort((a, b) => b.public - a.public || a.sort - b.sort || a.name.localeCompare(b.name))
    .map((m) => m.id);
  loadedOrder = order.slice();
  drawMonitors();
  drawDomains(page);
  drawLogo(page.logo);
}

// --- public monitors and sections ----------------------------------------------------------------

const sectionOf = (m) => m.public_group || m.group || '';

function drawMonitors() {
  const list = $('pub-list');
  list.textContent = '';
  const byId = new Map(monitors.map((m) => [m.id, m]));
  order.forEach((id, i) => {
    const m = byId.get(id);
    const li = el('li', 'pub-row' + (m.public ? '' : ' off'));
    li.dataset.id = id;
    const handle = el('span', 'handle', '⋮⋮');
    handle.setAttribute('aria-hidden', 'true');
    handle.title = 'Drag to move';
    const check = el('label', 'check');
    const box = el('input');
    box.type = 'checkbox';
    box.checked = !!m.public;
    box.name = `monitors.${i}.public`;
    box.addEventListener('change', () => {
      m.public = box.checked;
      li.classList.toggle('off', !box.checked);
      drawSections();
      changed();
    });
    check.append(box, document.createTextNode(' ' + m.name));
    const name = textField(`monitors.${i}.public_name`, 'Public name', m.public_name, {
      placeholder: m.name,
      maxlength: '100',
    });
    name.querySelector('input').addEventListener('input', (ev) => {
      m.public_name = ev.target.value.trim() || null;
      changed();
    });
    const group = textField(`monitors.${i}.public_group`, 'Section', m.public_group, {
      placeholder: m.group || 'none',
      maxlength: '60',
    });
    group.querySelector('input').addEventListener('input', (ev) => {
      m.public_group = ev.target.value.trim() || null;
      drawSections();
      changed();
    });
    const arrows = el('span', 'arrows');
    const up = el('button', 'secondary small', '↑');
    up.type = 'button';
    up.setAttribute('aria-label', 'Move ' + m.name + ' up');
    up.disabled = i === 0;
    up.addEventListener('click', () => move(id, -1));
    const down = el('button', 'secondary small', '↓');
    down.type = 'button';
    down.setAttribute('aria-label', 'Move ' + m.name + ' down');
    down.disabled = i === order.length - 1;
    down.addEventListener('click', () => move(id, 1));
    arrows.append(up, down);
    li.append(handle, check, name, group, arrows);
    list.appendChild(li);
  });
  drawSections();
}

function move(id, by) {
  const i = order.indexOf(id);
  const j = i + by;
  if (j < 0 || j >= order.length) return;
  [order[i], order[j]] = [order[j], order[i]];
  drawMonitors();
  $('pub-list')
    .querySelector(`li[data-id="${id}"] button[aria-label^="Move"][aria-label$="${by < 0 ? 'up' : 'down'}"]`)
    ?.focus();
  changed();
}

// Dragging by the handle, with pointer events so that a mouse, a pen and a finger all work (the
// HTML drag-and-drop API has no touch on most phones, and a draggable row would steal the text
// selection of its inputs). The dragged row stays in the list while the rows it passes move
// around it (moving the row itself would end its pointer capture); dropped, the list's order is
// the new order. Escape or a cancelled pointer puts everything back.
let drag = null;
const pubList = $('pub-list');
pubList.addEventListener('pointerdown', (ev) => {
  const handle = ev.target.closest('.handle');
  if (!handle || ev.button !== 0 || drag) return;
  ev.preventDefault();
  const li = handle.closest('li');
  handle.setPointerCapture(ev.pointerId);
  drag = { li, pointer: ev.pointerId };
  li.classList.add('dragging');
});
pubList.addEventListener('pointermove', (ev) => {
  if (!drag || ev.pointerId !== drag.pointer) return;
  const rows = [...pubList.children];
  const over = rows.find((r) => {
    const box = r.getBoundingClientRect();
    return r !== drag.li && ev.clientY >= box.top && ev.clientY < box.bottom;
  });
  if (!over) return;
  // A row is passed once the pointer is past its middle.
  const box = over.getBoundingClientRect();
  const below = rows.indexOf(over) > rows.indexOf(drag.li);
  if (below && ev.clientY > box.top + box.height / 2) pubList.insertBefore(over, drag.li);
  else if (!below && ev.clientY < box.top + box.height / 2) pubList.insertBefore(over, drag.li.nextSibling);
});
function endDrag(keep) {
  if (!drag) return;
  const next = [...pubList.children].map((li) => Number(li.dataset.id));
  const moved = keep && next.some((id, i) => id !== order[i]);
  drag = null;
  if (moved) order = next;
  drawMonitors();
  if (moved) changed();
}
pubList.addEventListener('pointerup', (ev) => {
  if (drag && ev.pointerId === drag.pointer) endDrag(true);
});
pubList.addEventListener('pointercancel', (ev) => {
  if (drag && ev.pointerId === drag.pointer) endDrag(false);
});
document.addEventListener('keydown', (ev) => {
  if (ev.key === 'Escape' && drag) endDrag(false);
});

function sections() {
  const names = [
    ...new Set(
      order
        .map((id) => monitors.find((m) => m.id === id))
        .filter((m) => m.public)
        .map(sectionOf)
        .filter(Boolean),
    ),
  ];
  const known = groupOrder.filter((n) => names.includes(n));
  return [...known, ...names.filter((n) => !known.includes(n))];
}

function drawSections() {
  const list = $('section-order');
  list.textContent = '';
  const names = sections();
  $('sections-box').hidden = names.length < 2;
  names.forEach((n, i) => {
    const li = el('li', null);
    li.appendChild(el('span', 'section-name', n));
    for (const [label, by] of [
      ['↑', -1],
      ['↓', 1],
    ]) {
      const b = el('button', 'secondary small', label);
      b.type = 'button';
      b.setAttribute('aria-label', 'Move the section ' + n + (by < 0 ? ' up' : ' down'));
      b.disabled = (by < 0 && i === 0) || (by > 0 && i === names.length - 1);
      b.addEventListener('click', () => {
        const cur = sections();
        [cur[i], cur[i + by]] = [cur[i + by], cur[i]];
        groupOrder = cur;
        drawSections();
        changed();
      });
      li.appendChild(b);
    }
    list.appendChild(li);
  });
}

// --- the draft, the preview, saving --------------------------------------------------------------

function draft() {
  const settings = {
    title: form.elements.title.value.trim(),
    app_name: form.elements.app_name.value.trim(),
    description: form.elements.description.value.trim(),
    ranges: [...form.querySelectorAll('input[name=ranges]:checked')].map((c) => c.value),
    group_order: sections(),
  };
  for (const k of LOOK) settings[k] = form.elements[k].value.trim();
  for (const k of FLAGS) settings[k] = form.elements[k].checked;
  const wl = form.elements['website.label'].value.trim();
  const wu = form.elements['website.url'].value.trim();
  settings.website = wl || wu ? { label: wl, url: wu } : null;
  settings.links = [...form.querySelectorAll('[data-list="links"] .rep-row')].map((row) => {
    const [label, url] = row.querySelectorAll('input');
    return { label: label.value.trim(), url: url.value.trim() };
  });
  return { settings, monitors: monitorChanges() };
}

/**
 * Every monitor in page order (the API's errors name them by index: `monitors[3].public_name`).
 * A save writes a "monitor changed" line for each monitor whose settings it changes, so `sort`
 * is sent only when the owner changed the order, and then only where a monitor's sort moves
 * (0, 1, 2 ... down the list); the rest keep theirs. Renumbering every monitor on every save
 * wrote "changed: sort" lines for monitors nobody touched.
 */
function monitorChanges() {
  const was = new Map(saved.monitors.map((m) => [m.id, m]));
  const reordered = order.length !== loadedOrder.length || order.some((id, i) => id !== loadedOrder[i]);
  const byId = new Map(monitors.map((m) => [m.id, m]));
  return order.map((id, i) => {
    const m = byId.get(id);
    const item = { id, public: !!m.public, public_name: m.public_name || null, public_group: m.public_group || null };
    const before = was.get(id);
    if (reordered && (!before || before.sort !== i)) item.sort = i;
    return item;
  });
}

let previewTimer = null;
let previewSeq = 0;
function changed() {
  $('saved').hidden = true;
  clearTimeout(previewTimer);
  previewTimer = setTimeout(preview, 350);
}

async function preview() {
  const seq = ++previewSeq;
  const d = draft();
  $('pv-state').textContent = 'Drawing the preview…';
  try {
    const r = await api('POST', 'status-page/preview', {
      settings: d.settings,
      monitors: d.monitors,
      range: $('pv-range').value,
    });
    if (seq !== previewSeq) return;
    $('preview').srcdoc = r.html;
    $('pv-state').textContent = 'Your changes show here before they are saved.';
  } catch (err) {
    if (seq !== previewSeq) return;
    $('pv-state').textContent = 'The preview cannot be drawn: ' + errorWords(err);
  }
}

form.addEventListener('input', (ev) => {
  if (ev.target.name === 'accent' && /^#[0-9a-f]{6}$/i.test(ev.target.value))
    $('sp-accent-pick').value = ev.target.value;
  if (ev.target.name === 'hosts' || ev.target.type === 'file' || ev.target.id === 'icon-bg') return;
  changed();
});
form.addEventListener('change', (ev) => {
  if (ev.target.type === 'checkbox' || ev.target.tagName === 'SELECT') changed();
});
$('sp-accent-pick').addEventListener('input', (ev) => {
  form.elements.accent.value = ev.target.value;
  changed();
});
$('pv-range').addEventListener('change', preview);
form.querySelector('[data-add="links"]').addEventListener('click', () => {
  addRow(form, 'links', LINK_ROW).querySelector('input').focus();
  changed();
});

form.addEventListener('submit', async (ev) => {
  ev.preventDefault();
  clearErrors(form);
  const d = draft();
  const body = Object.assign({}, d.settings, { monitors: d.monitors });
  const hosts = form.elements.hosts.value
    .split(/[\s,]+/)
    .map((h) => h.trim())
    .filter(Boolean);
  // Hosts go only when they changed: changing them needs admin and a fresh sign-in.
  if (hosts.join('\n') !== (saved.hosts || []).join('\n')) body.hosts = hosts;
  const button = form.querySelector('button[type=submit]');
  button.disabled = true;
  try {
    await put('status-page', body);
    await reload();
    $('saved').hidden = false;
  } catch (err) {
    fieldErrors(form, err);
  } finally {
    button.disabled = false;
  }
});
$('discard').addEventListener('click', () => {
  clearErrors(form);
  fill(saved);
  preview();
});

// --- hosts and domains ---------------------------------------------------------------------------

const DOMAIN_WORDS = {
  checking: 'Checking',
  dns_missing: 'DNS record missing',
  dns_elsewhere: 'Points elsewhere',
  proxied: "Behind the DNS provider's proxy",
  certificate: 'Getting a certificate',
  live: 'Live',
  failed: 'Failed',
  not_managed: 'Served through your proxy',
};

function drawDomains(page) {
  const ul = $('domains');
  ul.textContent = '';
  for (const d of page.domains || []) {
    const li = el('li');
    const text = el('span', 'item-text');
    const state = el(
      'span',
      'status ' +
        (d.state === 'live'
          ? 'up'
          : d.state === 'failed' || d.state === 'dns_missing' || d.state === 'dns_elsewhere'
            ? 'down'
            : 'unknown'),
      DOMAIN_WORDS[d.state] || d.state,
    );
    const head = el('span');
    head.append(el('strong', null, d.host + ' '), state);
    text.append(
      head,
      el('span', 'muted', (d.detail || '') + (d.checked_at ? ' (checked ' + when(d.checked_at) + ')' : '')),
    );
    if (d.points_at && d.points_at.length) text.appendChild(el('span', 'muted', 'Points at ' + d.points_at.join(', ')));
    if (d.records && d.records.length) {
      const t = el('table', 'checks records');
      const cap = el('caption', null, 'Create these records' + (d.provider ? ' at ' + d.provider : '') + ':');
      t.appendChild(cap);
      const head2 = el('tr');
      for (const h of ['Type', 'Name', 'Value']) {
        const th = el('th', null, h);
        th.scope = 'col';
        head2.appendChild(th);
      }
      t.appendChild(head2);
      for (const r of d.records) {
        const tr = el('tr');
        tr.append(el('td', null, r.type), el('td', null, r.name), el('td', null, r.value));
        t.appendChild(tr);
      }
      text.appendChild(t);
    }
    if (d.dashboard) {
      const a = el('a', null, 'Open the DNS provider');
      a.href = d.dashboard;
      a.rel = 'noopener noreferrer';
      a.target = '_blank';
      text.appendChild(a);
    }
    li.appendChild(text);
    ul.appendChild(li);
  }
  $('server-ips').textContent =
    page.server_ips && page.server_ips.length ? "This server's addresses: " + page.server_ips.join(', ') + '.' : '';
}

// --- logo and icon -------------------------------------------------------------------------------

function drawLogo(logo) {
  const img = $('logo-img');
  img.hidden = !logo;
  $('logo-none').hidden = !!logo;
  $('logo-remove').hidden = !logo;
  $('icon-make').hidden = !logo;
  $('icon-canvas').hidden = !logo;
  if (logo) {
    img.src = logo.url;
    img.onload = () => drawIcon();
  }
}

/** The icon: the logo centred on the background colour with a margin, 512 px square. */
function drawIcon() {
  const img = $('logo-img');
  const c = $('icon-canvas');
  const ctx = c.getContext('2d');
  ctx.fillStyle = $('icon-bg').value;
  ctx.fillRect(0, 0, c.width, c.height);
  const w = img.naturalWidth || 512;
  const h = img.naturalHeight || 512;
  const box = c.width * 0.72;
  const scale = Math.min(box / w, box / h);
  ctx.drawImage(img, (c.width - w * scale) / 2, (c.height - h * scale) / 2, w * scale, h * scale);
}
$('icon-bg').addEventListener('input', () => {
  if (saved && saved.logo) drawIcon();
});

function logoSay(ok, err) {
  say($('logo-ok'), ok);
  say($('logo-error'), err);
}

$('logo-file').addEventListener('change', async (ev) => {
  const file = ev.target.files[0];
  if (!file) return;
  logoSay(null, null);
  if (file.size > 256 * 1024)
    return logoSay(null, 'That file is ' + Math.round(file.size / 1024) + ' KB; a logo may be 256 KB at most.');
  try {
    await api('PUT', 'status-page/logo', file, { raw: true, type: file.type || 'application/octet-stream' });
    ev.target.value = '';
    await reload();
    logoSay('The logo is saved. Make the home-screen icon from it when it looks right below.', null);
  } catch (err) {
    logoSay(null, errorWords(err));
  }
});

$('icon-make').addEventListener('click', async () => {
  logoSay(null, null);
  drawIcon();
  const blob = await new Promise((r) => $('icon-canvas').toBlob(r, 'image/png'));
  try {
    const v = saved.logo.url.split('v=')[1] || '';
    await api('PUT', 'status-page/icon?logo=' + encodeURIComponent(v), blob, { raw: true, type: 'image/png' });
    await reload();
    logoSay('The home-screen icon is saved: phones that add the page get it.', null);
  } catch (err) {
    logoSay(
      null,
      err.status === 409
        ? 'The logo changed meanwhile: the icon was drawn again from the new one; make it again.'
        : errorWords(err),
    );
  }
});

$('logo-remove').addEventListener('click', async () => {
  if (!confirm('Remove the logo and the home-screen icon made from it?')) return;
  try {
    await api('DELETE', 'status-page/logo');
    await reload();
    logoSay('The logo is removed.', null);
  } catch (err) {
    logoSay(null, errorWords(err));
  }
});

// --- start -----------------------------------------------------------------------------------------

async function reload() {
  fill(await get('status-page'));
  preview();
}

// The overview's first-run checklist counts the status page as done once the owner has been here.
localStorage.setItem('farsight.status-page-seen', 'yes');

Promise.all([getAll('monitors'), get('status-page')])
  .then(([list, page]) => {
    monitors = list.map((m) => ({
      id: m.id,
      name: m.name,
      group: m.group,
      public: m.public,
      public_name: m.public_name,
      public_group: m.public_group,
      sort: m.sort,
    }));
    fill(page);
    $('loading').hidden = true;
    $('editor').hidden = false;
    preview();
  })
  .catch((err) => {
    $('loading').textContent = 'The status page could not be loaded: ' + errorWords(err);
  });
