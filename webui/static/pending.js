// The winners waiting on the record page (a double or triple ron entered one by one), kept in
// the tab's sessionStorage so a reload or a phone locking the tab does not lose them. One entry
// per session, stamped with the hand it belongs to: it is never applied to another hand.
// Confirm marks it sent rather than dropping it, so a refused confirm (the error page's Back)
// finds it again; the scoreboard that a recorded hand lands on drops it.
(function () {
  "use strict";

  const keyOf = (session) => `tenbou.pending.${session}`;

  function read(session) {
    try {
      const kept = JSON.parse(window.sessionStorage.getItem(keyOf(session)) || "null");
      return kept && typeof kept === "object" && Array.isArray(kept.entries) ? kept : null;
    } catch (err) {
      return null;        // storage off (private mode) or a damaged entry: nothing kept
    }
  }

  function write(session, kept) {
    try {
      if (kept && kept.entries.length) window.sessionStorage.setItem(keyOf(session), JSON.stringify(kept));
      else window.sessionStorage.removeItem(keyOf(session));
    } catch (err) {
      /* storage full or off: the page still works, only a reload loses the list */
    }
  }

  // The winners kept for this very hand ({discarder, entries: [{post, label}]}), or null;
  // anything kept for another hand of the session is dropped.
  function restore(session, hand) {
    const kept = read(session);
    if (!kept) return null;
    if (kept.hand !== hand) { write(session, null); return null; }
    return kept;
  }

  function save(session, hand, discarder, entries) {
    write(session, { hand, discarder, entries, sent: false });
  }

  function markSent(session) {
    const kept = read(session);
    if (kept) write(session, Object.assign(kept, { sent: true }));
  }

  function forget(session) { write(session, null); }

  // On the scoreboard: a list that was sent has been recorded (a refusal never gets here).
  function forgetSent(session) {
    const kept = read(session);
    if (kept && kept.sent) forget(session);
  }

  window.TenbouPending = { restore, save, markSent, forget, forgetSent };

  const board = document.querySelector("[data-pending-session]");
  if (board) forgetSent(board.dataset.pendingSession);
})();
