// The status page's subscribers on the status page settings (docs/subscribers.md): who they are,
// whether they confirmed, and a button to remove each. Admin data: the page's session may see it.
import { errorWords } from '../../shared/errors.js';
import { del, get } from '../core/api.js';
import { el, when } from '../core/format.js';

const list = document.getElementById('subs-list');
const state = document.getElementById('subs-state');
const more = document.getElementById('subs-more');
let cursor = null;
let shown = 0;

function row(s) {
  const li = el('li');
  const text = el('div', 'item-text');
  text.append(el('span', null, s.email));
  text.append(
    el(
      'span',
      'muted',
      s.state === 'confirmed'
        ? 'Confirmed ' + when(s.confirmed_at)
        : 'Waiting for confirmation since ' + when(s.created_at),
    ),
  );
  li.append(text);
  const remove = el('button', 'secondary small', 'Remove');
  remove.type = 'button';
  remove.setAttribute('aria-label', 'Remove ' + s.email);
  remove.addEventListener('click', async () => {
    remove.disabled = true;
    try {
      await del('subscribers/' + s.id);
      li.remove();
      shown -= 1;
      state.textContent = s.email + ' was removed.';
      if (shown === 0 && !cursor) state.textContent = 'Nobody has subscribed yet.';
    } catch (err) {
      remove.disabled = false;
      state.textContent = errorWords(err, 'The subscriber could not be removed');
    }
  });
  li.append(remove);
  return li;
}

async function load(next) {
  more.hidden = true;
  try {
    const page = await get('subscribers?limit=50' + (next ? '&before=' + encodeURIComponent(next) : ''));
    for (const s of page.items) list.append(row(s));
    shown += page.items.length;
    cursor = page.next_cursor;
    more.hidden = !cursor;
    state.textContent = shown === 0 ? 'Nobody has subscribed yet.' : '';
  } catch (err) {
    state.textContent = errorWords(err, 'The subscribers could not be loaded');
  }
}

more.addEventListener('click', () => load(cursor));
load(null);
