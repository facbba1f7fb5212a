// What the overview knows, shared by its parts (overview.js loads it; overview-live.js keeps it
// current; overview-list.js, overview-summary.js and overview-selection.js draw it). Plain maps
// and objects, changed in place: the parts are one page, split by idea, not by owner.

/** id -> the monitor's answer (GET /monitors), as last read or changed by the stream. */
export const monitors = new Map();
/** id -> its row element, built once and kept (while filtered out too). */
export const rows = new Map();
/** id -> open incident. */
export const openIncidents = new Map();
/** Ids of the monitors picked for a bulk action. */
export const selected = new Set();
/** The list's filters and order, as in the form and the address (overview-filters.js). */
export const filters = { q: '', status: '', group: '', tag: '', kind: '', sort: 'order' };
/** `summary`: GET /summary as last read; `shownIds`: the monitors the list shows, in order (the rows of some may still be on their way). */
export const view = { summary: null, shownIds: [] };

export const monitorLink = (id) => '/monitors/' + id;
