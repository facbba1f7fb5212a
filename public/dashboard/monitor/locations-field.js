// The monitor form's "Checked from" part (docs/agents.md): which locations check the monitor
// (`local` is this service; the others come from GET /locations) and how many of them must agree
// (`quorum`; empty is a majority of those online). A heartbeat is received, not checked, so the
// part is hidden for it and the fields are not sent. quorumWords is pure
// (test/dashboard/location-words.spec.ts).
import { el } from '../core/format.js';
import { LOCATION_STATES } from '../locations/location-words.js';

/** What the quorum means for `n` chosen locations, in words under the input. */
export function quorumWords(n, quorum) {
  if (n <= 1) return 'Checked from one place: its checks alone decide.';
  if (quorum === null || quorum === undefined || quorum === '')
    return `Down when a majority of the online ones confirm it (${Math.floor(n / 2) + 1} of ${n} while all are online; an offline location is left out of the count).`;
  const q = Number(quorum);
  if (!Number.isInteger(q) || q < 1) return 'A whole number from 1, or empty for a majority.';
  if (q > n) return `Only ${n} locations are chosen: ${q} can never agree.`;
  return `Down when ${q} of the ${n} locations (those online) confirm it.`;
}

/**
 * Draws one checkbox per location into `box` (local first, then the agents' by name), with the
 * monitor's own (`chosen`) ticked; a name the monitor lists that no longer exists is kept, ticked,
 * so saving shows the API's refusal instead of dropping it silently. Returns whether there is a
 * place other than local to choose.
 */
export function drawLocationChoices(box, locations, chosen) {
  const names = ['local', ...locations.map((l) => l.name).sort((a, b) => a.localeCompare(b))];
  for (const n of chosen) if (!names.includes(n)) names.push(n);
  const byName = new Map(locations.map((l) => [l.name, l]));
  box.replaceChildren(
    ...names.map((n) => {
      const l = el('label', 'check');
      const i = el('input');
      i.type = 'checkbox';
      i.name = 'locations';
      i.value = n;
      i.checked = chosen.includes(n);
      const loc = byName.get(n);
      const word =
        n === 'local' ? 'this service' : loc ? (LOCATION_STATES[loc.state] || { word: loc.state }).word : 'not found';
      l.append(i, document.createTextNode(' ' + n + ' '), el('span', 'muted', '(' + word.toLowerCase() + ')'));
      return l;
    }),
  );
  return names.length > 1;
}

/** The part's fields of the body: nothing when they are hidden (the API keeps or defaults them). */
export function locationsBody(form, fields) {
  if (fields.closest('[hidden]')) return {};
  const chosen = [...form.querySelectorAll('input[name=locations]:checked')].map((i) => i.value);
  const q = form.elements.namedItem('quorum').value.trim();
  return { locations: chosen, quorum: q === '' ? null : Number(q) };
}
