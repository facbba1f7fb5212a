// The overview's first-run checklist (add a monitor, a channel, look at the status page) and the
// note that /status is public while it is switched on.
import { pageIds } from '../../shared/page.js';
import { get } from './api.js';

const $ = pageIds(
  ['checklist', 'checklist-hide', 'public-note', 'public-note-link', 'step-channel', 'step-monitor', 'step-page'],
  'checklist.js',
);

/** Set when the owner opened the status page or its editor (here or in status-page.js). */
const PAGE_SEEN = 'farsight.status-page-seen';

/** Draws the checklist for an install with `monitorCount` monitors, and the public note. */
export async function checklist(monitorCount) {
  const page = await get('status-page');
  drawPublicNote(page);
  if (localStorage.getItem('farsight.checklist') === 'hidden') return;
  // The status page step is the owner's to judge: done once they have looked at the page or its
  // editor, or saved it (a status_page_updated line), whether or not a monitor is public yet.
  const seen =
    localStorage.getItem(PAGE_SEEN) === 'yes' ||
    (await get('events?kind=status_page_updated&limit=1')).items.length > 0;
  const channels = await get('channels');
  const steps = [
    ['step-monitor', monitorCount > 0],
    ['step-channel', channels.items.length > 0],
    ['step-page', seen],
  ];
  for (const [id, done] of steps) {
    $(id).classList.toggle('done', done);
    $(id).querySelector('.step-state').textContent = done ? ' (done)' : ' (to do)';
  }
  $('checklist').hidden = steps.every(([, done]) => done);
}

/** Says that /status is public while it is switched on (anyone with the address can read it). */
function drawPublicNote(page) {
  const note = $('public-note');
  note.hidden = !page.enabled;
  $('public-note-link').href = page.url || '/status';
}
$('public-note-link').addEventListener('click', () => localStorage.setItem(PAGE_SEEN, 'yes'));

$('checklist-hide').addEventListener('click', () => {
  localStorage.setItem('farsight.checklist', 'hidden');
  $('checklist').hidden = true;
});
