/**
 * Today's date in Switzerland, the calendar day every plain date on the wire means (a contract's
 * signing, a reminder's due day, "not in the future"): one definition for the server and the web
 * app, whatever the machine's or the browser's time zone.
 */

/** The zone of every Swiss local date and time. */
export const SWISS_TIME_ZONE = 'Europe/Zurich';

// The ISO-like day of Sweden's locale ('2026-11-28'), in the Swiss zone; made once.
const DAY = new Intl.DateTimeFormat('sv-SE', {
  timeZone: SWISS_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** Today in Switzerland (or the Swiss day of `now`) as YYYY-MM-DD. */
export function swissToday(now: Date | number = Date.now()): string {
  return DAY.format(now);
}
