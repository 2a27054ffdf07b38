/** The dashboard's style sheet, served at `/dashboard/app.css`. */
export const DASHBOARD_STYLE = `
:root { color-scheme: light dark; --accent: #5865f2; --muted: #6b7280; --card: #ffffff; --bg: #eef0f4;
        --line: #d1d5db; --ok: #23a55a; --warn: #f0b232; --bad: #ed4245; }
@media (prefers-color-scheme: dark) {
  :root { --card: #1f2128; --bg: #111214; --muted: #9ca3af; --line: #374151; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
header { display: flex; align-items: baseline; gap: 1rem; padding: 0.75rem 1.25rem; background: var(--card);
         border-bottom: 1px solid var(--line); position: sticky; top: 0; z-index: 1; }
h1 { font-size: 1.15rem; margin: 0; }
h2 { font-size: 1rem; margin: 0 0 0.5rem; }
h3 { font-size: 0.95rem; margin: 0 0 0.35rem; }
.origin, .muted, .empty, time { color: var(--muted); }
.live { margin-left: auto; font-weight: 600; }
.live.on { color: var(--ok); }
.live.off { color: var(--bad); }
main { display: grid; grid-template-columns: repeat(auto-fit, minmax(34rem, 1fr)); gap: 1rem; padding: 1rem 1.25rem; }
section { background: var(--card); border-radius: 10px; padding: 0.9rem 1rem; box-shadow: 0 2px 10px rgb(0 0 0 / 0.06);
          min-width: 0; }
#users-section, #log-section { grid-column: 1 / -1; }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; padding: 0.3rem 0.45rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.03em; color: var(--muted); }
code, .id { font: 0.8rem ui-monospace, SFMono-Regular, Menlo, monospace; }
.id { color: var(--muted); display: block; }
button { font: inherit; font-size: 0.85rem; padding: 0.2rem 0.6rem; border-radius: 6px; border: 1px solid var(--line);
         background: transparent; color: inherit; cursor: pointer; margin: 0 0.25rem 0.25rem 0; }
button:hover { border-color: var(--accent); }
button.danger { border-color: var(--bad); color: var(--bad); }
form { display: flex; gap: 0.5rem; margin-bottom: 0.6rem; flex-wrap: wrap; }
input { font: inherit; padding: 0.3rem 0.5rem; border-radius: 6px; border: 1px solid var(--line); background: transparent;
        color: inherit; }
form button { background: var(--accent); border-color: var(--accent); color: #fff; }
.status { display: inline-flex; align-items: center; gap: 0.35rem; }
.dot { width: 0.6rem; height: 0.6rem; border-radius: 50%; display: inline-block; background: var(--muted); }
.status-online .dot, .dot.on { background: var(--ok); }
.status-idle .dot { background: var(--warn); }
.status-dnd .dot { background: var(--bad); }
.tag { display: inline-block; font-size: 0.75rem; padding: 0 0.4rem; border-radius: 4px; border: 1px solid var(--line);
       margin-left: 0.3rem; }
.tag.bad { color: var(--bad); border-color: var(--bad); }
.rels div { white-space: nowrap; }
.cards { display: grid; gap: 0.75rem; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 0.6rem 0.75rem; }
.card ul { margin: 0.2rem 0 0.5rem; padding-left: 1.1rem; }
.messages li .author { font-weight: 600; margin-right: 0.35rem; }
.speaking-on { color: var(--ok); font-weight: 600; }
.speaking-on .dot { background: var(--ok); box-shadow: 0 0 0 3px rgb(35 165 90 / 0.35); }
.dave, .fields { display: grid; grid-template-columns: max-content 1fr; gap: 0.1rem 0.75rem; margin: 0.3rem 0 0.5rem; }
.dave dt, .fields dt { color: var(--muted); }
.dave dd, .fields dd { margin: 0; }
.fields code { word-break: break-all; }
#notice { margin: 0.75rem 1.25rem 0; padding: 0.5rem 0.75rem; border-radius: 8px; background: var(--card);
          border-left: 4px solid var(--ok); }
#notice.error { border-left-color: var(--bad); }
#log { list-style: none; margin: 0; padding: 0; max-height: 22rem; overflow-y: auto;
       font: 0.8rem/1.5 ui-monospace, SFMono-Regular, Menlo, monospace; }
#log li { white-space: pre-wrap; word-break: break-word; }
#log .area { color: var(--accent); margin: 0 0.4rem; }
`;
