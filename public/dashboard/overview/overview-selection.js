// The overview's selection and bulk actions: pick monitors (one by one, or every one shown) and
// pause, resume, mute, unmute or delete them together. The first request goes alone, so that a
// step-up it asks for covers the rest; then a few at a time.
import { errorWords } from '../../shared/errors.js';
import { pageIds, say } from '../../shared/page.js';
import { del, post } from '../core/api.js';
import { monitors, rows, selected, view } from './overview-state.js';

const $ = pageIds(['bulk', 'bulk-clear', 'bulk-count', 'bulk-result', 'list', 'select-all'], 'overview-selection.js');

/** Ticks each row's box as the selection says, and the bar and the "all shown" box with it. */
export function drawSelection() {
  for (const [id, row] of rows) {
    const pick = row.querySelector('.pick');
    if (pick.checked !== selected.has(id)) pick.checked = selected.has(id);
  }
  const n = selected.size;
  $('bulk').hidden = n === 0;
  $('bulk-count').textContent = n + (n === 1 ? ' monitor selected' : ' monitors selected');
  const all = $('select-all');
  const shownIds = view.shownIds;
  all.checked = shownIds.length > 0 && shownIds.every((id) => selected.has(id));
  all.indeterminate = !all.checked && shownIds.some((id) => selected.has(id));
}

$('list').addEventListener('change', (ev) => {
  if (!ev.target.classList.contains('pick')) return;
  const id = Number(ev.target.value);
  if (ev.target.checked) selected.add(id);
  else selected.delete(id);
  drawSelection();
});
$('select-all').addEventListener('change', (ev) => {
  for (const id of view.shownIds) {
    if (ev.target.checked) selected.add(id);
    else selected.delete(id);
  }
  drawSelection();
});
$('bulk-clear').addEventListener('click', () => {
  selected.clear();
  drawSelection();
  say($('bulk-result'), null);
});

/** Requests a bulk action keeps in flight at once. */
const BULK_AT_ONCE = 6;

const BULK = {
  pause: { words: 'Pausing', call: (id) => post(`monitors/${id}/pause`) },
  resume: { words: 'Resuming', call: (id) => post(`monitors/${id}/resume`) },
  mute60: { words: 'Muting', call: (id) => post(`monitors/${id}/mute`, { minutes: 60 }) },
  mute1440: { words: 'Muting', call: (id) => post(`monitors/${id}/mute`, { minutes: 1440 }) },
  unmute: { words: 'Unmuting', call: (id) => post(`monitors/${id}/unmute`) },
  delete: { words: 'Deleting', call: (id) => del(`monitors/${id}`) },
};

$('bulk').addEventListener('click', async (ev) => {
  const b = ev.target.closest('button[data-bulk]');
  if (!b) return;
  const action = BULK[b.dataset.bulk];
  const ids = [...selected];
  if (ids.length === 0) return;
  if (
    b.dataset.bulk === 'delete' &&
    !confirm(
      'Delete ' +
        ids.length +
        (ids.length === 1 ? ' monitor' : ' monitors') +
        ' with their history? This cannot be undone.',
    )
  )
    return;
  const buttons = $('bulk').querySelectorAll('button');
  buttons.forEach((x) => {
    x.disabled = true;
  });
  const failed = [];
  let done = 0;
  const one = async (id) => {
    try {
      await action.call(id);
      selected.delete(id);
    } catch (err) {
      failed.push((monitors.get(id) || { name: '#' + id }).name + ': ' + errorWords(err));
      return err;
    } finally {
      done += 1;
      say($('bulk-result'), action.words + ': ' + done + ' of ' + ids.length + '…');
    }
    return null;
  };
  // The first alone (a step-up it asks for is then good for the rest), the rest a few at a time:
  // hundreds of monitors take seconds, and the service is never sent hundreds of requests at once.
  say($('bulk-result'), action.words + ': 0 of ' + ids.length + '…');
  const first = await one(ids[0]);
  // A sign-in or step-up the owner turned down is not asked again for each of the others.
  let next = first && (first.code === 'step_up' || first.code === 'sign_in') ? ids.length : 1;
  const worker = async () => {
    while (next < ids.length) await one(ids[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(BULK_AT_ONCE, ids.length - 1) }, worker));
  buttons.forEach((x) => {
    x.disabled = false;
  });
  const left = ids.length - done;
  say(
    $('bulk-result'),
    left
      ? 'Stopped: ' + failed.join('; ')
      : failed.length
        ? 'Done, except ' + failed.length + ': ' + failed.join('; ')
        : 'Done: ' + ids.length + (ids.length === 1 ? ' monitor.' : ' monitors.'),
  );
  drawSelection();
});
